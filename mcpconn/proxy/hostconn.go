package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/internal/safetext"
)

// MaxHostLine is the longest line, in bytes without its newline, that the
// proxy takes from its host. It is the SDK's own stdio limit
// (mcp.DefaultMaxLineLength, 16 MiB), so that the proxy refuses nothing a
// go-sdk server behind it would have accepted.
const MaxHostLine = mcp.DefaultMaxLineLength

// HostTransport is the proxy's side facing its host: newline-delimited
// JSON-RPC read from In and written to Out.
//
// mcp.StdioTransport fails its Read at the first line that is not a JSON-RPC
// message, which ends the proxy — silently, with exit 0 — because of one bad
// line. HostTransport instead answers such a line itself with a JSON-RPC
// error on Out and reads on:
//   - a line that is not JSON: -32700 Parse error, id null;
//   - JSON that is not a request, notification or response (no method, a
//     jsonrpc other than "2.0", an id that is not a string or an integer, a
//     response with neither or both of result and error): -32600 Invalid
//     Request, with the id echoed when the message has a method and a valid
//     id, else id null. A message without a method is not a request, and
//     its id is one of the server's: echoing it could fail the host's own
//     call that happens to have the same id;
//   - a batch (a JSON array): -32600 for each request in it that has a
//     valid id, or once with id null when none has. Batches were removed
//     from MCP in 2025-06-18, and splitting one would need the answers
//     gathered back into an array;
//   - a line over MaxLine bytes: -32600, id null, read through to its
//     newline without being kept;
//   - an error response with id null (the host could not read something the
//     server sent): logged and dropped, never answered.
//
// Empty lines are skipped and a "\r\n" ending is accepted. Read returns an
// error only when In ends (io.EOF: the host went away) or fails.
type HostTransport struct {
	In     io.Reader    // nil: os.Stdin
	Out    io.Writer    // nil: os.Stdout
	Logger *slog.Logger // what was refused, by a short escaped prefix; nil: discarded
	// MaxLine caps a line from the host; 0 means MaxHostLine.
	MaxLine int
}

// Connect implements mcp.Transport. It starts the goroutine that reads In:
// a Read of os.Stdin cannot be interrupted, and Connection.Read must return
// when the connection is closed.
func (t *HostTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &hostConn{
		in:       t.In,
		out:      t.Out,
		log:      t.Logger,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
	}
	if c.in == nil {
		c.in = os.Stdin
	}
	if c.out == nil {
		c.out = os.Stdout
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	limit := t.MaxLine
	if limit <= 0 {
		limit = MaxHostLine
	}
	go c.readLoop(newLineReader(c.in, limit))
	return c, nil
}

// hostConn is the connection HostTransport makes.
type hostConn struct {
	in  io.Reader
	out io.Writer
	log *slog.Logger

	writeMu sync.Mutex // one line at a time: the proxy and the reader both write

	// incoming carries the valid messages; the reader closes it after
	// setting readErr when In ends.
	incoming chan jsonrpc.Message
	readErr  error

	closeOnce sync.Once
	closed    chan struct{}

	refused  int  // lines not relayed so far; only the reader touches it
	writeErr bool // a write of a refusal failed; only the reader touches it
}

// Refusals logged one by one; after that, only every refusalLogEvery-th is,
// so a host that floods garbage cannot grow the log without bound.
const (
	refusalsLogged  = 100
	refusalLogEvery = 1000
	logHead         = 40 // runes of a refused line shown in the log
)

func (c *hostConn) SessionID() string { return "" }

// Read returns the host's next valid message.
func (c *hostConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, mcp.ErrConnectionClosed
	case m, ok := <-c.incoming:
		if !ok {
			select {
			case <-c.closed: // Close ended the input: the end is Close's
				return nil, mcp.ErrConnectionClosed
			default:
			}
			return nil, c.readErr
		}
		return m, nil
	}
}

// Write sends msg to the host as one line.
func (c *hostConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message for the host: %w", err)
	}
	return c.writeLine(data)
}

func (c *hostConn) writeLine(data []byte) error {
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Close ends Read; In is closed when it can be (as the SDK's stdio
// transport does), Out is left open.
func (c *hostConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			err = cl.Close()
		}
	})
	return err
}

// readLoop reads lines until In ends, passing valid messages to Read and
// answering the others.
func (c *hostConn) readLoop(lr *lineReader) {
	for {
		line, err := lr.next()
		if err != nil {
			c.readErr = err
			close(c.incoming)
			return
		}
		var msg jsonrpc.Message
		var refusals []refusal
		if line.data == nil {
			refusals = []refusal{{code: jsonrpc.CodeInvalidRequest,
				why: fmt.Sprintf("too large: the message is %d bytes, over the limit of %d", line.size, lr.limit)}}
		} else {
			msg, refusals = checkHostLine(line.data)
		}
		if len(refusals) > 0 {
			c.refuse(refusals, line)
		}
		if msg == nil {
			continue
		}
		select {
		case c.incoming <- msg:
		case <-c.closed:
			return
		}
	}
}

// refuse logs a line that is not relayed and answers it, unless it must
// not be answered.
func (c *hostConn) refuse(rs []refusal, line hostLine) {
	c.refused++
	if c.refused <= refusalsLogged || c.refused%refusalLogEvery == 0 {
		start := safetext.EscapeMax(string(line.head), logHead)
		if rs[0].silent {
			c.log.Info("dropped a message from the host", "why", rs[0].why, "bytes", line.size, "start", start, "refused_total", c.refused)
		} else {
			c.log.Warn("refused a message from the host", "code", rs[0].code, "why", safetext.EscapeMax(rs[0].why, 200),
				"answers", len(rs), "bytes", line.size, "start", start, "refused_total", c.refused)
		}
		if c.refused == refusalsLogged {
			c.log.Warn("from now on only some refused messages are logged", "every", refusalLogEvery)
		}
	}
	if rs[0].silent {
		return
	}
	for _, r := range rs {
		if err := c.writeLine(r.encode()); err != nil && !c.writeErr {
			c.writeErr = true
			c.log.Warn("answering the host's bad message", "err", err)
		}
	}
}

// refusal is the error answer to a message the proxy does not relay.
type refusal struct {
	code   int64
	id     json.RawMessage // the request's id as sent; nil: null
	why    string
	silent bool // log only: the message must not be answered
}

// encode writes the error response by hand: jsonrpc.EncodeMessage omits an
// invalid (null) id, and JSON-RPC requires "id": null when the id cannot
// be read.
func (r refusal) encode() []byte {
	id := r.id
	if id == nil {
		id = json.RawMessage("null")
	}
	title := "Invalid Request"
	if r.code == jsonrpc.CodeParseError {
		title = "Parse error"
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: r.code, Message: title + ": " + r.why}})
	return b
}

// checkHostLine decodes one line from the host: a message to relay, or the
// refusals to answer instead (none for a blank line).
//
// jsonrpc.DecodeMessage decides what a message is, but its error says
// neither which code applies nor the id, and it lets through what MCP
// forbids (an id of null or 1.5 on a request, a response with neither
// result nor error); the envelope is read first, as raw fields, for that.
func checkHostLine(line []byte) (jsonrpc.Message, []refusal) {
	line = bytes.Trim(line, " \t\r\n") // JSON's whitespace; \r of a \r\n ending
	if len(line) == 0 {
		return nil, nil
	}
	if !json.Valid(line) {
		return nil, []refusal{{code: jsonrpc.CodeParseError, why: "the line is not JSON"}}
	}
	switch line[0] {
	case '[':
		return nil, refuseBatch(line)
	case '{':
	default:
		return nil, []refusal{invalid(nil, "a message is a JSON object")}
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(line, &env); err != nil {
		return nil, []refusal{invalid(nil, "a message is a JSON object")}
	}
	id, idOK := requestID(env)
	if _, isRequest := env["method"]; !isRequest {
		id = nil // see HostTransport: not a request, so never echoed
		if r, ok := checkResponse(env, idOK); !ok {
			return nil, []refusal{r}
		}
	} else {
		if !idOK {
			return nil, []refusal{invalid(nil, "the id must be a string or an integer")}
		}
		var method string
		if json.Unmarshal(env["method"], &method) != nil {
			return nil, []refusal{invalid(id, "the method must be a string")}
		}
	}
	if !isVersion2(env) {
		return nil, []refusal{invalid(id, `"jsonrpc" must be "2.0"`)}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil { // what the SDK refuses beyond the above, such as deep nesting
		return nil, []refusal{invalid(id, err.Error())}
	}
	return msg, nil
}

func invalid(id json.RawMessage, why string) refusal {
	return refusal{code: jsonrpc.CodeInvalidRequest, id: id, why: why}
}

func isVersion2(env map[string]json.RawMessage) bool {
	var v string
	return json.Unmarshal(env["jsonrpc"], &v) == nil && v == "2.0"
}

// requestID returns the message's id when it is one MCP allows on a
// request — a string or an integer — and whether it is; a message without
// an id (a notification) has a nil, valid one.
func requestID(env map[string]json.RawMessage) (json.RawMessage, bool) {
	raw, ok := env["id"]
	if !ok {
		return nil, true
	}
	switch raw[0] {
	case '"':
		return raw, true
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return raw, true
		}
		// 1.0 or 1e3 is an integer too; the SDK keeps ids as int64, and
		// beyond 2^53 a float64 no longer tells integers apart.
		f, err := strconv.ParseFloat(string(raw), 64)
		if err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return raw, true
		}
	}
	return nil, false
}

// checkResponse checks a message without a method as a response: exactly
// one of result and error, an error with an integer code and a string
// message. An error response with id null is valid JSON-RPC but nothing
// the proxy can relay: it is dropped, silently for the host.
func checkResponse(env map[string]json.RawMessage, idOK bool) (refusal, bool) {
	rawErr, hasErr := env["error"]
	_, hasResult := env["result"]
	switch {
	case !hasErr && !hasResult:
		return invalid(nil, "a message needs a method, or a result or error"), false
	case hasErr && hasResult:
		return invalid(nil, "a response has a result or an error, not both"), false
	case hasErr:
		var e struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		}
		if json.Unmarshal(rawErr, &e) != nil || e.Code == nil || e.Message == nil {
			return invalid(nil, "an error needs an integer code and a string message"), false
		}
		if _, err := strconv.ParseInt(e.Code.String(), 10, 64); err != nil {
			return invalid(nil, "an error needs an integer code and a string message"), false
		}
	}
	id, hasID := env["id"]
	switch {
	case hasErr && hasID && string(id) == "null":
		return refusal{silent: true, why: "an error response with id null: the host could not read something the server sent"}, false
	case !hasID || !idOK:
		return invalid(nil, "a response needs the string or integer id of the request it answers"), false
	}
	return refusal{}, true
}

// refuseBatch answers a batch: each call in it gets its own error, so that
// the host's calls fail at once instead of waiting for answers that will
// never come.
func refuseBatch(line []byte) []refusal {
	const why = "batches are not supported (removed from MCP in 2025-06-18); send one message per line"
	var elems []json.RawMessage
	_ = json.Unmarshal(line, &elems)
	var out []refusal
	for _, e := range elems {
		var env map[string]json.RawMessage
		if json.Unmarshal(e, &env) != nil {
			continue
		}
		if _, isRequest := env["method"]; !isRequest {
			continue
		}
		if id, ok := requestID(env); ok && id != nil {
			out = append(out, invalid(id, why))
		}
	}
	if len(out) == 0 {
		out = []refusal{invalid(nil, why)}
	}
	return out
}

// hostLine is one line read from the host.
type hostLine struct {
	data []byte // the line without its newline; nil when it was too long
	size int64  // its length in bytes
	head []byte // its first bytes, for the log
}

// hostBuffer is the read buffer of a lineReader: a line that fits is
// copied out of it once.
const hostBuffer = 64 << 10

// lineReader splits a stream into lines, holding at most limit bytes of a
// line (plus its read buffer): a longer line is read through to its end and
// dropped, so a host cannot make the proxy hold an unbounded line.
type lineReader struct {
	br    *bufio.Reader
	limit int
	err   error // returned by the next call: the stream ended after a last line
	peak  int   // the most bytes of one line held at once; for the tests
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, hostBuffer), limit: limit}
}

// next returns the next line, or the error that ended the stream (io.EOF
// at its end). A last line without a newline is a line.
func (r *lineReader) next() (hostLine, error) {
	if r.err != nil {
		return hostLine{}, r.err
	}
	var l hostLine
	var data []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		body := bytes.TrimSuffix(chunk, []byte("\n"))
		if len(l.head) < 2*logHead {
			l.head = append(l.head, body[:min(len(body), 2*logHead-len(l.head))]...)
		}
		l.size += int64(len(body))
		if l.size > int64(r.limit) {
			data = nil // too long: from here on, bytes are counted, not kept
		} else {
			data = r.grow(data, body)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && l.size == 0 && len(chunk) == 0:
			return hostLine{}, err
		case err != nil:
			r.err = err
		}
		if l.size <= int64(r.limit) {
			l.data = data
			if l.data == nil {
				l.data = []byte{} // an empty line is not a too-long one
			}
		}
		return l, nil
	}
}

// grow appends p to b, growing b to at most the limit: append's own growth
// could reserve up to twice what the line needs.
func (r *lineReader) grow(b, p []byte) []byte {
	if need := len(b) + len(p); need > cap(b) {
		nb := make([]byte, len(b), min(max(2*cap(b), need), r.limit))
		copy(nb, b)
		b = nb
	}
	b = append(b, p...)
	r.peak = max(r.peak, cap(b))
	return b
}
