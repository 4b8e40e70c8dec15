package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"
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
	value      bool     // takes a value
	enum       []string // its values, if fixed
}

type compCmd struct {
	name, help string // name "" is the default command (pick)
	flags      []compFlag
	args       []string // fixed first arguments (completion's shells, help's commands)
}

// flagValues are the values of flags whose type checks them (kong's enum
// would say them itself).
var flagValues = map[string][]string{"print-config": hostNames}

// flagsOf lists n's own flags that are not hidden, with the values of
// those that take one from a set.
func flagsOf(n *kong.Node) []compFlag {
	var out []compFlag
	for _, f := range n.Flags {
		if f.Hidden {
			continue
		}
		cf := compFlag{name: f.Name, help: f.Help, value: !f.IsBool(), enum: flagValues[f.Name]}
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

// completionModel lists the commands with their flags; the default
// command's flags go with the top level, along with the global ones.
func completionModel(root *kong.Node) []compCmd {
	top := compCmd{flags: flagsOf(root)}
	var cmds []compCmd
	var names []string
	for _, n := range root.Children {
		if n.Hidden || n.Type != kong.CommandNode {
			continue
		}
		if n.DefaultCmd != nil || n.Tag.Default != "" {
			top.flags = append(top.flags, flagsOf(n)...)
		}
		c := compCmd{name: n.Name, help: n.Help, flags: append(flagsOf(root), flagsOf(n)...)}
		for _, sub := range n.Children { // config's path and show
			if sub.Type == kong.CommandNode && !sub.Hidden {
				c.args = append(c.args, sub.Name)
			}
		}
		cmds = append(cmds, c)
		names = append(names, n.Name)
	}
	for i := range cmds {
		switch cmds[i].name {
		case "completion":
			cmds[i].args = []string{"bash", "zsh", "fish"}
		case "help":
			cmds[i].args = names
		}
	}
	return append([]compCmd{top}, cmds...)
}

func writeBash(w io.Writer, cmds []compCmd) error {
	var b strings.Builder
	b.WriteString("# bash completion for rootpick: source <(rootpick completion bash)\n")
	b.WriteString("_rootpick() {\n")
	b.WriteString("\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i\n")
	b.WriteString("\tfor ((i = 1; i < COMP_CWORD; i++)); do\n\t\tcase ${COMP_WORDS[i]} in\n")
	b.WriteString("\t\t--) return 0 ;; # the server command: the shell's own completion\n")
	var names []string
	for _, c := range cmds[1:] {
		names = append(names, c.name)
	}
	fmt.Fprintf(&b, "\t\t%s) cmd=${COMP_WORDS[i]}; break ;;\n", strings.Join(names, "|"))
	b.WriteString("\t\tesac\n\tdone\n")
	b.WriteString("\tlocal flags= args= valueflags= \n\tcase $cmd in\n")
	for _, c := range cmds {
		label := c.name
		if label == "" {
			label = `""`
		}
		var fl, vf []string
		for _, f := range c.flags {
			fl = append(fl, "--"+f.name)
			if f.value {
				vf = append(vf, "--"+f.name)
			}
		}
		args := strings.Join(c.args, " ")
		if c.name == "" {
			args = strings.Join(names, " ")
		}
		fmt.Fprintf(&b, "\t%s) flags=%q; valueflags=%q; args=%q ;;\n", label, strings.Join(fl, " "), strings.Join(vf, " "), args)
	}
	b.WriteString("\tesac\n")
	// A flag's value: its fixed values, or files.
	for _, c := range cmds {
		for _, f := range c.flags {
			if len(f.enum) > 0 {
				fmt.Fprintf(&b, "\tif [[ $prev == --%s ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); return 0; fi\n", f.name, strings.Join(f.enum, " "))
			}
		}
	}
	b.WriteString("\tif [[ \" $valueflags \" == *\" $prev \"* ]]; then return 0; fi # default completion\n")
	b.WriteString("\tif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\")); return 0; fi\n")
	b.WriteString("\tCOMPREPLY=($(compgen -W \"$args\" -- \"$cur\"))\n")
	b.WriteString("\tif [[ -z $cmd || $cmd == list ]]; then COMPREPLY+=($(compgen -d -- \"$cur\")); fi\n")
	b.WriteString("}\ncomplete -o default -F _rootpick rootpick\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// zshQuote escapes a "word:description" item for _describe.
func zshItem(word, help string) string {
	r := strings.NewReplacer(`:`, `\:`, `'`, `'\''`)
	return "'" + r.Replace(word) + ":" + r.Replace(help) + "'"
}

func writeZsh(w io.Writer, cmds []compCmd) error {
	var b strings.Builder
	b.WriteString("#compdef rootpick\n# zsh completion for rootpick: rootpick completion zsh > \"${fpath[1]}/_rootpick\"\n")
	b.WriteString("_rootpick() {\n\tlocal cmd= w\n\tlocal -a cmds flags args\n")
	b.WriteString("\tcmds=(")
	for _, c := range cmds[1:] {
		b.WriteString("\n\t\t" + zshItem(c.name, c.help))
	}
	b.WriteString("\n\t)\n")
	b.WriteString("\tfor w in ${words[2,CURRENT-1]}; do\n\t\tcase $w in\n\t\t--) _normal; return ;;\n")
	for _, c := range cmds[1:] {
		fmt.Fprintf(&b, "\t\t%s) cmd=%s; break ;;\n", c.name, c.name)
	}
	b.WriteString("\t\tesac\n\tdone\n\tcase $cmd in\n")
	for _, c := range cmds {
		label := c.name
		if label == "" {
			label = `""`
		}
		fmt.Fprintf(&b, "\t%s)\n\t\tflags=(", label)
		for _, f := range c.flags {
			b.WriteString("\n\t\t\t" + zshItem("--"+f.name, f.help))
		}
		b.WriteString("\n\t\t)\n\t\targs=(")
		for _, a := range c.args {
			b.WriteString(" " + zshItem(a, a))
		}
		b.WriteString(" ) ;;\n")
	}
	b.WriteString("\tesac\n")
	b.WriteString("\tif [[ $PREFIX == -* ]]; then _describe flag flags; return; fi\n")
	b.WriteString("\tif [[ -z $cmd ]]; then _describe command cmds; _files -/; return; fi\n")
	b.WriteString("\tif (( ${#args} )); then _describe argument args; return; fi\n")
	b.WriteString("\t_files -/\n}\n")
	b.WriteString("if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _rootpick \"$@\"; else compdef _rootpick rootpick; fi\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFish(w io.Writer, cmds []compCmd) error {
	var b strings.Builder
	q := func(s string) string {
		return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `'`, `\'`) + "'"
	}
	b.WriteString("# fish completion for rootpick: rootpick completion fish > ~/.config/fish/completions/rootpick.fish\n")
	b.WriteString("complete -c rootpick -f\n")
	top := "__fish_use_subcommand"
	for _, c := range cmds[1:] {
		fmt.Fprintf(&b, "complete -c rootpick -n %s -a %s -d %s\n", top, c.name, q(c.help))
	}
	fmt.Fprintf(&b, "complete -c rootpick -n %s -a '(__fish_complete_directories)'\n", top)
	for _, c := range cmds {
		cond := top
		if c.name != "" {
			cond = "'__fish_seen_subcommand_from " + c.name + "'"
		}
		for _, f := range c.flags {
			extra := ""
			if f.value {
				extra = " -r"
				if len(f.enum) > 0 {
					extra += " -a " + q(strings.Join(f.enum, " "))
				} else {
					extra += " -F"
				}
			}
			fmt.Fprintf(&b, "complete -c rootpick -n %s -l %s%s -d %s\n", cond, f.name, extra, q(f.help))
		}
		if len(c.args) > 0 {
			fmt.Fprintf(&b, "complete -c rootpick -n %s -a %s\n", cond, q(strings.Join(c.args, " ")))
		}
	}
	fmt.Fprintf(&b, "complete -c rootpick -n '__fish_seen_subcommand_from list' -a '(__fish_complete_directories)'\n")
	_, err := io.WriteString(w, b.String())
	return err
}
