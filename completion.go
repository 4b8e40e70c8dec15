package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/internal/hostcfg"
)

// completionCmd prints a completion script written from the kong model, so
// that it always knows every command and flag.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

func (c *completionCmd) Help() string {
	return `Examples:
  source <(rootpick completion bash)                  in ~/.bashrc
  rootpick completion zsh > "${fpath[1]}/_rootpick"   then restart zsh
  rootpick completion fish > ~/.config/fish/completions/rootpick.fish`
}

func (c *completionCmd) Run(e *env, k *kong.Kong) error {
	cmds := completionModel(k.Model.Node)
	switch c.Shell {
	case "bash":
		return writeBash(e.stdout, cmds)
	case "zsh":
		return writeZsh(e.stdout, cmds)
	default:
		return writeFish(e.stdout, cmds)
	}
}

// compFlag and compCmd are what a completion script needs of the model.
type compFlag struct {
	name, help string
	short      rune
	value      bool     // takes a value
	enum       []string // its values, if fixed
}

// compCmd is one command at its place in the tree: what may follow its
// path on the command line.
type compCmd struct {
	path  string // "rootpick", "rootpick hosts", "rootpick hosts wrap"
	help  string
	subs  []compCmd  // its subcommands, in the model's order
	flags []compFlag // its own, its ancestors' and its default subcommand's
	args  []string   // fixed values of its first argument
	dirs  bool       // its first argument is a folder
}

// walk calls f on c and on every command below it, parents first.
func (c *compCmd) walk(f func(*compCmd)) {
	f(c)
	for i := range c.subs {
		c.subs[i].walk(f)
	}
}

// flagValues are the values of the flag name whose type checks them
// (kong's enum would say them itself); nil for any other flag.
func flagValues(name string) []string {
	if name == "print-config" {
		return printConfigHosts()
	}
	return nil
}

// flagsOf lists n's own flags that are not hidden, with the values of
// those that take one from a set.
func flagsOf(n *kong.Node) []compFlag {
	var out []compFlag
	for _, f := range n.Flags {
		if f.Hidden {
			continue
		}
		cf := compFlag{name: f.Name, help: f.Help, short: f.Short, value: !f.IsBool(), enum: flagValues(f.Name)}
		if f.Enum != "" {
			for _, v := range strings.Split(f.Enum, ",") {
				if v != "" {
					cf.enum = append(cf.enum, v)
				}
			}
		}
		out = append(out, cf)
	}
	return out
}

// visibleCommands are n's subcommands that are not hidden.
func visibleCommands(n *kong.Node) []*kong.Node {
	var out []*kong.Node
	for _, c := range n.Children {
		if c.Type == kong.CommandNode && !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// isDefault reports whether n runs when its parent is given without a
// subcommand (pick under rootpick, list under hosts).
func isDefault(n *kong.Node) bool { return n.DefaultCmd != nil || n.Tag.Default != "" }

// firstArg says what n's first positional argument takes: fixed values,
// a folder, or anything (nothing to offer). topNames are the top-level
// commands, which help takes.
func firstArg(n *kong.Node, topNames []string) (values []string, dirs bool) {
	if len(n.Positional) == 0 {
		return nil, false
	}
	p := n.Positional[0]
	switch {
	case p.Enum != "":
		return strings.Split(p.Enum, ","), false
	case p.Name == "command":
		return topNames, false
	case p.Name == "host" || p.Name == "host-or-server":
		return hostcfg.Hosts, false
	case p.Name == "dir":
		return nil, true
	}
	return nil, false
}

// completionModel turns the kong model into the tree the scripts are
// written from. A command accepts its ancestors' flags (kong parses them at
// any depth) and, when it has a default subcommand, that one's flags and
// argument too: "rootpick --print" is pick's, "rootpick hosts --project
// DIR" is hosts list's.
func completionModel(root *kong.Node) compCmd {
	var topNames []string
	for _, n := range visibleCommands(root) {
		topNames = append(topNames, n.Name)
	}
	var build func(n *kong.Node, path string, inherited []compFlag) compCmd
	build = func(n *kong.Node, path string, inherited []compFlag) compCmd {
		own := append(append([]compFlag(nil), inherited...), flagsOf(n)...)
		c := compCmd{path: path, help: n.Help, flags: own}
		c.args, c.dirs = firstArg(n, topNames)
		for _, sub := range visibleCommands(n) {
			if isDefault(sub) {
				c.flags = append(c.flags, flagsOf(sub)...)
				v, d := firstArg(sub, topNames)
				c.args, c.dirs = append(c.args, v...), c.dirs || d
			}
			c.subs = append(c.subs, build(sub, path+" "+sub.Name, own))
		}
		return c
	}
	return build(root, "rootpick", nil)
}

// subNames are c's subcommands' names.
func (c *compCmd) subNames() []string {
	var out []string
	for _, s := range c.subs {
		out = append(out, s.path[strings.LastIndexByte(s.path, ' ')+1:])
	}
	return out
}

// flagWords are c's flags as typed: long names (and short ones with
// shorts), and those that take a value.
func (c *compCmd) flagWords(shorts bool) (all, valued []string) {
	for _, f := range c.flags {
		all = append(all, "--"+f.name)
		if f.value {
			valued = append(valued, "--"+f.name)
		}
		if shorts && f.short != 0 {
			all = append(all, "-"+string(f.short))
		}
	}
	return all, valued
}

// shQuote quotes s for bash and zsh as one word.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// The bash script keeps the command path while it reads COMP_WORDS: a
// subcommand name extends it (until the first argument), a flag that
// takes a value skips that value, and "--" hands over to the server
// command. __rootpick_node sets what the path accepts.
func writeBash(w io.Writer, root compCmd) error {
	var b strings.Builder
	b.WriteString("# bash completion for rootpick: source <(rootpick completion bash)\n")
	b.WriteString("# (bash-completion loads it from ~/.local/share/bash-completion/completions/rootpick)\n")
	b.WriteString("__rootpick_node() {\n\tsubs= flags= valueflags= args= dirs=\n\tcase $1 in\n")
	root.walk(func(c *compCmd) {
		all, valued := c.flagWords(true)
		dirs := ""
		if c.dirs {
			dirs = "1"
		}
		fmt.Fprintf(&b, "\t%s)\n\t\tsubs=%s\n\t\tflags=%s\n\t\tvalueflags=%s\n\t\targs=%s dirs=%s ;;\n",
			shQuote(c.path), shQuote(strings.Join(c.subNames(), " ")), shQuote(strings.Join(all, " ")),
			shQuote(strings.Join(valued, " ")), shQuote(strings.Join(c.args, " ")), shQuote(dirs))
	})
	b.WriteString("\tesac\n}\n")
	b.WriteString(`_rootpick() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmdpath=rootpick arg= skip= i w subs flags valueflags args dirs
	# COMP_WORDBREAKS splits --flag=value into --flag, =, value.
	if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
	__rootpick_node "$cmdpath"
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ -n $skip ]]; then skip=; continue; fi
		case $w in
		--) # the server command: bash-completion's, else files
			if declare -F _command_offset >/dev/null; then _command_offset $((i + 1)); fi
			return 0 ;;
		=) skip=1 ;;    # the value after --flag=
		-*) if [[ " $valueflags " == *" $w "* && ${COMP_WORDS[i+1]} != = ]]; then skip=1; fi ;;
		*)
			if [[ -z $arg && " $subs " == *" $w "* ]]; then
				cmdpath+=" $w"
				__rootpick_node "$cmdpath"
			else
				arg=1
			fi
			;;
		esac
	done
	case "$cmdpath:$prev" in
`)
	root.walk(func(c *compCmd) {
		for _, f := range c.flags {
			if len(f.enum) > 0 {
				fmt.Fprintf(&b, "\t%s) COMPREPLY=($(compgen -W %s -- \"$cur\")); return 0 ;;\n",
					shQuote(c.path+":--"+f.name), shQuote(strings.Join(f.enum, " ")))
			}
		}
	})
	b.WriteString(`	esac
	if [[ " $valueflags " == *" $prev "* ]]; then return 0; fi # files, by complete -o default
	if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); return 0; fi
	COMPREPLY=()
	if [[ -z $arg ]]; then
		COMPREPLY=($(compgen -W "$subs $args" -- "$cur"))
		if [[ -n $dirs ]]; then COMPREPLY+=($(compgen -d -- "$cur")); fi
	fi
}
complete -o default -F _rootpick rootpick
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// zshItem escapes a "word:description" item for _describe.
func zshItem(word, help string) string {
	return shQuote(strings.ReplaceAll(word, ":", `\:`) + ":" + help)
}

// The zsh script reads words as the bash one reads COMP_WORDS.
func writeZsh(w io.Writer, root compCmd) error {
	var b strings.Builder
	b.WriteString("#compdef rootpick\n# zsh completion for rootpick: rootpick completion zsh > \"${fpath[1]}/_rootpick\"\n")
	b.WriteString("__rootpick_node() {\n\tsubs=() flags=() valueflags=() args=() dirs=\n\tcase $1 in\n")
	root.walk(func(c *compCmd) {
		fmt.Fprintf(&b, "\t%s)\n\t\tsubs=(", shQuote(c.path))
		for _, s := range c.subs {
			b.WriteString("\n\t\t\t" + zshItem(s.path[strings.LastIndexByte(s.path, ' ')+1:], s.help))
		}
		b.WriteString("\n\t\t)\n\t\tflags=(")
		for _, f := range c.flags {
			b.WriteString("\n\t\t\t" + zshItem("--"+f.name, f.help))
			if f.short != 0 {
				b.WriteString("\n\t\t\t" + zshItem("-"+string(f.short), f.help))
			}
		}
		_, valued := c.flagWords(false)
		b.WriteString("\n\t\t)\n\t\tvalueflags=(")
		for _, v := range valued {
			b.WriteString(" " + v)
		}
		b.WriteString(" )\n\t\targs=(")
		for _, a := range c.args {
			b.WriteString(" " + shQuote(a))
		}
		b.WriteString(" )")
		if c.dirs {
			b.WriteString(" dirs=1")
		}
		b.WriteString(" ;;\n")
	})
	b.WriteString("\tesac\n}\n")
	b.WriteString(`_rootpick() {
	local cmdpath=rootpick arg= skip= i w cur=$PREFIX prev=${words[CURRENT-1]} dirs
	local -a subs names flags valueflags args
	__rootpick_node $cmdpath
	for (( i = 2; i < CURRENT; i++ )); do
		w=${words[i]}
		if [[ -n $skip ]]; then skip=; continue; fi
		case $w in
		--) # the server command: complete it as a command line of its own
			shift $i words
			(( CURRENT -= i ))
			_normal
			return ;;
		--*=*) ;;
		-*) if (( ${valueflags[(Ie)$w]} )); then skip=1; fi ;;
		*)
			names=(${subs%%:*}) # (( )) would join a nested array
			if [[ -z $arg ]] && (( ${names[(Ie)$w]} )); then
				cmdpath+=" $w"
				__rootpick_node $cmdpath
			else
				arg=1
			fi ;;
		esac
	done
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		compset -P '*='
	fi
	case "$cmdpath:$prev" in
`)
	root.walk(func(c *compCmd) {
		for _, f := range c.flags {
			if len(f.enum) > 0 {
				fmt.Fprintf(&b, "\t%s) compadd -- %s; return ;;\n", shQuote(c.path+":--"+f.name), strings.Join(f.enum, " "))
			}
		}
	})
	b.WriteString(`	esac
	if (( ${valueflags[(Ie)$prev]} )); then _files; return; fi
	if [[ $cur == -* ]]; then _describe flag flags; return; fi
	if [[ -n $arg ]]; then _files; return; fi
	(( ${#subs} )) && _describe command subs
	(( ${#args} )) && compadd -- $args
	[[ -n $dirs ]] && _files -/
	return 0
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _rootpick "$@"; else compdef _rootpick rootpick; fi
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote quotes s for fish as one word.
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `'`, `\'`) + "'"
}

// The fish script computes the command path with __rootpick_state (the
// path, then "arg" once an argument was given; "server-command" after
// "--") and conditions each completion on it.
func writeFish(w io.Writer, root compCmd) error {
	var b strings.Builder
	b.WriteString("# fish completion for rootpick: rootpick completion fish > ~/.config/fish/completions/rootpick.fish\n")
	b.WriteString(`function __rootpick_state
    set -l cmdpath rootpick
    set -l arg
    set -l skip
    for w in (commandline -opc)[2..-1]
        if set -q skip[1]
            set -e skip
            continue
        end
        switch "$cmdpath:$w"
            case '*:--'
                echo server-command
                return
`)
	var valued, subs []string
	root.walk(func(c *compCmd) {
		_, v := c.flagWords(false)
		for _, f := range v {
			valued = append(valued, fishQuote(c.path+":"+f))
		}
		for _, s := range c.subNames() {
			subs = append(subs, fishQuote(c.path+":"+s))
		}
	})
	fmt.Fprintf(&b, "            case %s\n                set skip 1\n", strings.Join(valued, " "))
	b.WriteString("            case '*:-*'\n")
	fmt.Fprintf(&b, "            case %s\n", strings.Join(subs, " "))
	b.WriteString(`                if set -q arg[1]
                    continue
                end
                set cmdpath "$cmdpath $w"
            case '*'
                set arg 1
        end
    end
    echo $cmdpath
    set -q arg[1]; and echo arg
end

# __rootpick_at PATH: the command line is at PATH; __rootpick_bare PATH:
# at PATH with no argument yet.
function __rootpick_at
    set -l s (__rootpick_state)
    test "$s[1]" = "$argv"
end
function __rootpick_bare
    set -l s (__rootpick_state)
    test "$s[1]" = "$argv"; and not set -q s[2]
end

# After "--" comes the server command: complete it as a command line.
function __rootpick_server_command
    set -l t (commandline -opc) (commandline -ct)
    set -l i (contains -i -- -- $t)
    __fish_complete_subcommand --commandline $t[(math $i + 1)..-1]
end

complete -c rootpick -f
complete -c rootpick -n '__rootpick_at server-command' -a '(__rootpick_server_command)'
`)
	root.walk(func(c *compCmd) {
		at, bare := fishQuote("__rootpick_at "+c.path), fishQuote("__rootpick_bare "+c.path)
		for _, s := range c.subs {
			fmt.Fprintf(&b, "complete -c rootpick -n %s -a %s -d %s\n", bare, s.path[strings.LastIndexByte(s.path, ' ')+1:], fishQuote(s.help))
		}
		for _, f := range c.flags {
			extra := ""
			if f.short != 0 {
				extra = " -s " + string(f.short)
			}
			if f.value {
				if len(f.enum) > 0 {
					extra += " -x -a " + fishQuote(strings.Join(f.enum, " "))
				} else {
					extra += " -r -F"
				}
			}
			fmt.Fprintf(&b, "complete -c rootpick -n %s -l %s%s -d %s\n", at, f.name, extra, fishQuote(f.help))
		}
		if len(c.args) > 0 {
			fmt.Fprintf(&b, "complete -c rootpick -n %s -a %s\n", bare, fishQuote(strings.Join(c.args, " ")))
		}
		if c.dirs {
			fmt.Fprintf(&b, "complete -c rootpick -n %s -a '(__fish_complete_directories)'\n", bare)
		}
	})
	_, err := io.WriteString(w, b.String())
	return err
}
