package proxy

// Two things the proxy does around its child's fetch of roots, so that what
// the host is answered from is what the person consented to, and what the
// picker shows is what the server holds.
//
// The hold. Until the child has fetched its roots (asked roots/list and
// been answered from the consent) it holds what it started with: its folder
// arguments, or nothing. So from the child's answer to initialize, and
// again from the list_changed that tells it of a change, the host's
// requests that could read or act on the person's files wait. They reach
// the child, in the order the host sent them, once it has fetched — and,
// for a child the proxy knows how to ask what it holds (below), once that
// answer is in, since fetching a list is not applying it (server-filesystem
// checks the folders before it swaps them in) — or when FetchHold
// (DefaultFetchHold, 2 s) has gone by. A server known not to ask roots/list
// (NotFetching) is not held again, on a restart or a change: it would only
// wait out the bound, and it takes its folders from its arguments anyway.
//
// What passes at once is the handshake and what only lists what the server
// offers (passAtOnce): initialize, notifications/initialized, ping,
// tools/list, prompts/list, resources/templates/list and logging/setLevel.
// resources/list waits: a server may list the files it can see as
// resources. A notification from the host waits only behind a request that
// waits, so that a cancellation never overtakes its request; the host's
// answers to the child's own requests never wait. A child restarted for a
// consent change (enforced, {roots}, every root revoked) is held again from
// its replayed initialize. Only sessions at a revision with roots/list
// (RootsVersions) are held: from 2026-07-28 the roots travel inside each
// request (proxy_mrtr.go) and nothing needs to wait.
//
// The check. After each fetch, a child that rootpick knows how to ask
// (probers in verify.go: server-filesystem's list_allowed_directories, …)
// is asked, with a tools/call of the proxy's own that the host never sees,
// what it really holds, as the hub asks its servers. The answer goes to
// Status.Verified, and what differs from the consent to Mismatch; on
// a new mismatch the host is sent a warning (notifications/message), since
// the server holds, or lacks, folders the person did not choose that way
// (server-filesystem keeps its folder arguments when it is served an empty
// list).

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
)

// DefaultFetchHold is how long the host's requests wait, at most, for the
// server to fetch its roots (Options.FetchHold).
const DefaultFetchHold = 2 * time.Second

// passAtOnce are the host's messages that never wait for a fetch: the
// handshake, and requests whose answers only list what the server offers.
var passAtOnce = []string{
	"initialize", "notifications/initialized", "ping",
	"tools/list", "prompts/list", "resources/templates/list", "logging/setLevel",
}

// askTimeout bounds the proxy's own question to the child.
const askTimeout = 5 * time.Second

// newNonce makes the part of the proxy's own request ids that a host
// cannot guess, so that no answer of the host's requests is taken for the
// child's answer to the proxy.
func newNonce() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// holdLocked makes the host's requests for c wait until c fetches its
// roots, for FetchHold at most. p.mu is held.
func (p *proxy) holdLocked(c *child) {
	if c.holding || c.stopped || !slices.Contains(RootsVersions, c.protocol) || p.status.NotFetching {
		return
	}
	c.holding, c.holdSince = true, time.Now()
	c.holdTimer = time.AfterFunc(p.opts.FetchHold, func() { p.release(c, false) })
}

// mustWaitLocked says whether the host's message m for c waits for c's
// fetch. p.mu is held.
func mustWaitLocked(c *child, m *jsonrpc.Request) bool {
	switch {
	case !c.holding || slices.Contains(passAtOnce, m.Method):
		return false
	case !m.IsCall():
		return len(c.held) > 0 // behind the request it may be about
	default:
		return true
	}
}

// release ends c's hold and lets the host's requests that waited through,
// in order; fetched says c fetched its roots (else the hold ran out).
func (p *proxy) release(c *child, fetched bool) {
	p.mu.Lock()
	defer p.mu.Unlock() // held while writing: nothing from the host overtakes
	if !c.holding {
		return
	}
	c.holding = false
	if c.holdTimer != nil {
		c.holdTimer.Stop()
		c.holdTimer = nil
	}
	held := c.held
	c.held = nil
	waited := time.Since(c.holdSince).Round(time.Millisecond)
	if c.stopped {
		return // endChild failed its requests
	}
	if fetched {
		p.log.Info("the server fetched its roots: the host's requests pass", "held", len(held), "after", waited)
	} else {
		p.log.Warn("the server did not fetch its roots in time: the host's requests pass anyway", "held", len(held), "after", waited)
	}
	for _, m := range held {
		p.toChild(c, m)
	}
}

// fetchedBy notes that c was answered its roots/list: it is asked what it
// holds, and its hold ends then, or now if it cannot be asked.
func (p *proxy) fetchedBy(c *child) {
	p.mu.Lock()
	c.fetched = true
	_, known := p.proberLocked(c)
	p.mu.Unlock()
	if !known {
		p.release(c, true)
	}
	select {
	case c.verifyWake <- struct{}{}:
	default: // a check is due already
	}
}

// verifier asks c what it holds after each fetch, while c runs.
func (p *proxy) verifier(c *child) {
	for {
		select {
		case <-c.verifyWake:
		case <-c.done:
			return
		case <-p.ctx.Done():
			return
		}
		p.mu.Lock()
		pr, ok := p.proberLocked(c)
		p.mu.Unlock()
		if ok {
			p.verify(c, pr)
			p.release(c, true)
		}
	}
}

// proberLocked is how c can be asked what it holds, if rootpick knows.
// p.mu is held.
func (p *proxy) proberLocked(c *child) (mcpconn.Prober, bool) {
	pr, ok := mcpconn.ProberFor(c.server)
	return pr, ok && slices.Contains(RootsVersions, c.protocol)
}

// proxyVerifyTries is how often the proxy asks before a difference counts
// as a mismatch: the pauses between start short (10 ms, doubling up to
// verifyPause), since the host's requests wait for the answer, and add up
// to about as long as the hub waits (0.7 s).
const proxyVerifyTries = mcpconn.VerifyTries + 3

// verify asks c with pr what it holds, giving it about 0.7 s to apply what
// it fetched, and reports the answer.
func (p *proxy) verify(c *child, pr mcpconn.Prober) {
	var got []string
	var diff string
	for try := range proxyVerifyTries {
		if try > 0 {
			select {
			case <-time.After(min(10*time.Millisecond<<(try-1), mcpconn.VerifyPause)):
			case <-c.done:
				return
			}
		}
		p.mu.Lock()
		served := p.served
		p.mu.Unlock()
		text, err := p.askChild(c, pr.Tool)
		if err != nil {
			p.log.Warn("asking what the server holds failed", "tool", pr.Tool, "err", err)
			return
		}
		got = pr.Parse(text)
		want := make([]string, len(served))
		for i, r := range served {
			want[i] = r.URI
			if pr.ByPath {
				want[i] = r.Path
			}
		}
		diff = mcpconn.DescribeDiff(want, got)
		p.mu.Lock()
		same := slices.Equal(uriList(p.served), uriList(served))
		p.mu.Unlock()
		if same && diff == "" {
			break
		}
	}
	held := make([]string, len(got))
	for i, g := range got {
		if pr.ByPath {
			g = consent.PathToURI(g)
		}
		held[i] = safetext.EscapeMax(g, 4096)
	}
	diff = safetext.EscapeMax(diff, 8192)
	p.mu.Lock()
	current := p.cur == c
	p.mu.Unlock()
	if !current {
		return
	}
	if diff != "" {
		p.log.Warn("the server holds something else than the consent", "diff", diff)
	}
	p.mu.Lock()
	p.status.Verified, p.status.VerifiedAt, p.status.Mismatch = held, time.Now(), diff
	p.mu.Unlock()
	p.tellMismatch() // before the picker hears: whoever sees the status, the host was told
	p.report(func(*Status) {})
}

// askChild calls tool, with no arguments, on c as the proxy's own request
// and returns its text.
func (p *proxy) askChild(c *child, tool string) (string, error) {
	ch := make(chan *jsonrpc.Response, 1)
	p.mu.Lock()
	p.asks++
	id, _ := jsonrpc.MakeID(fmt.Sprintf("rootpick-verify-%s-%d", p.nonce, p.asks))
	c.asks[id.Raw()] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(c.asks, id.Raw())
		p.mu.Unlock()
	}()
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": map[string]any{}})
	if err := c.conn.Write(p.ctx, &jsonrpc.Request{ID: id, Method: "tools/call", Params: params}); err != nil {
		return "", err
	}
	var r *jsonrpc.Response
	select {
	case r = <-ch:
	case <-c.done:
		return "", errors.New("the server ended")
	case <-p.ctx.Done():
		return "", p.ctx.Err()
	case <-time.After(askTimeout):
		return "", fmt.Errorf("no answer within %s", askTimeout)
	}
	if r.Error != nil {
		return "", r.Error
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(r.Result, &res); err != nil {
		return "", err
	}
	text, err := mcpconn.ToolText(&res, tool)
	if err != nil {
		return "", err
	}
	return text, nil
}

// askAnswered hands c's answer m to the proxy's own question, and reports
// whether it was one.
func (p *proxy) askAnswered(c *child, m *jsonrpc.Response) bool {
	p.mu.Lock()
	ch, ok := c.asks[m.ID.Raw()]
	p.mu.Unlock()
	if ok {
		select {
		case ch <- m:
		default:
		}
	}
	return ok
}

// tellMismatch sends the host, once it has initialized, one warning per
// new mismatch: what the server holds beyond the consent, or lacks.
func (p *proxy) tellMismatch() {
	p.mu.Lock()
	st := p.status
	if st.Mismatch == "" {
		p.toldMismatch = ""
	}
	if !p.hostReady || st.Mismatch == "" || st.Mismatch == p.toldMismatch {
		p.mu.Unlock()
		return
	}
	p.toldMismatch = st.Mismatch
	served := p.served
	p.mu.Unlock()
	params, _ := json.Marshal(map[string]any{"level": "warning", "logger": "rootpick", "data": mismatchWarning(st, served)})
	p.toHost(&jsonrpc.Request{Method: "notifications/message", Params: params})
}

// mismatchWarning is the host's warning for st's Mismatch.
func mismatchWarning(st Status, served []consent.Root) string {
	extra, missing := mcpconn.DiffSets(uriList(served), st.Verified)
	server := st.Server
	if server == "" {
		server = st.Command
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rootpick: the server %s, asked what it holds, ", server)
	switch {
	case len(extra) > 0 && len(missing) > 0:
		fmt.Fprintf(&b, "holds %s beyond the consent and lacks %s.", strings.Join(extra, ", "), strings.Join(missing, ", "))
	case len(extra) > 0:
		fmt.Fprintf(&b, "holds %s beyond the consent.", strings.Join(extra, ", "))
	default:
		fmt.Fprintf(&b, "lacks %s of the consent.", strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		if st.Enforcement == "enforced" {
			b.WriteString(" The kernel still refuses it what was not consented.")
		} else {
			b.WriteString(" Nothing stops it from opening them: start it with {roots} instead of folder arguments.")
		}
	}
	return b.String()
}
