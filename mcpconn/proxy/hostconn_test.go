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
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/internal/testproc"
)

// rawHost is a host that writes bytes, not messages, to a proxy whose host
// side is a HostTransport over pipes, and reads what the proxy answers.
type rawHost struct {
	in    *io.PipeWriter
	lines chan []byte
	done  chan error
}

func startRawHost(t *testing.T, command []string, maxLine int, log io.Writer) *rawHost {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &rawHost{in: inW, lines: make(chan []byte, 16), done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	host := &HostTransport{In: inR, Out: outW, Logger: slog.New(slog.NewTextHandler(log, nil)), MaxLine: maxLine}
	go func() {
		h.done <- Run(ctx, host, Options{Command: command, Source: testproc.NewSource(), Timing: testTiming, Logger: testproc.Logger(t), FetchHold: testFetchHold})
		_ = outW.Close()
	}()
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			h.lines <- bytes.Clone(sc.Bytes())
		}
	}()
	t.Cleanup(func() {
		defer cancel()
		_ = inW.Close() // the host goes away
		go func() {
			for range h.lines {
			}
		}()
		select {
		case err := <-h.done:
			if err != nil {
				t.Errorf("the proxy ended with %v after the host went away", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("the proxy did not end after the host went away")
		}
	})
	return h
}

func (h *rawHost) send(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(h.in, s); err != nil {
		t.Fatalf("writing to the proxy: %v", err)
	}
}

// hostMsg is a line the proxy wrote to the host.
type hostMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
	line   string
}

// until reads the proxy's lines up to the response with id (raw JSON),
// and returns the responses before it.
func (h *rawHost) until(t *testing.T, id string) []hostMsg {
	t.Helper()
	var before []hostMsg
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-h.lines:
			if !ok {
				t.Fatalf("the proxy's output ended before the answer to %s; it wrote %v", id, before)
			}
			var m hostMsg
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("the proxy wrote a line that is not JSON: %q", line)
			}
			m.line = string(line)
			if m.Method != "" {
				continue // a notification or request from the server
			}
			if string(m.ID) == id {
				if m.Error != nil {
					t.Fatalf("%s was answered with an error: %s", id, line)
				}
				return before
			}
			before = append(before, m)
		case <-deadline:
			t.Fatalf("no answer to %s within 10 s; before it: %v", id, before)
		}
	}
}

// wantErr is an error response the proxy owes a host: its code and id as
// raw JSON.
type wantErr struct {
	code int64
	id   string
}

// droppedCase is the one line the proxy drops without an answer.
const droppedCase = "the host could not read something: dropped, unanswered"

// TestProxyRefusesBadHostLines: each line a host may get wrong is answered
// with the JSON-RPC error the specification gives it, with the id echoed
// only when it is a request's valid id, and the next request still
// reaches the server and is answered.
func TestProxyRefusesBadHostLines(t *testing.T) {
	const maxLine = 64 << 10
	big := `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"` + strings.Repeat("a", 3*maxLine) + `"}}`
	deep := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`
	parse := func() []wantErr { return []wantErr{{jsonrpc.CodeParseError, "null"}} }
	invalid := func(id string) []wantErr { return []wantErr{{jsonrpc.CodeInvalidRequest, id}} }
	cases := []struct {
		name     string
		send     string // written as is
		want     []wantErr
		answered []string // ids (raw JSON) of requests in send answered with a result
	}{
		{"not JSON", "hello\n", parse(), nil},
		{"binary", "\x00\x01\xff\xfe\x1b[31m\n", parse(), nil},
		{"truncated object", `{"jsonrpc":"2.0","id":1,"method":"ping"` + "\n", parse(), nil},
		{"two values on a line", `{"a":1} {"b":2}` + "\n", parse(), nil},
		{"an object without a method", `{"foo":1}` + "\n", invalid("null"), nil},
		{"an object as id", `{"jsonrpc":"2.0","id":{},"method":"ping"}` + "\n", invalid("null"), nil},
		{"an array as id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}` + "\n", invalid("null"), nil},
		{"a bool as id", `{"jsonrpc":"2.0","id":true,"method":"ping"}` + "\n", invalid("null"), nil},
		{"a null id (MCP forbids it)", `{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n", invalid("null"), nil},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n", invalid("null"), nil},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}` + "\n", invalid("7"), nil},
		{"no jsonrpc", `{"id":"x9","method":"ping"}` + "\n", invalid(`"x9"`), nil},
		{"a method that is not a string", `{"jsonrpc":"2.0","id":"m","method":3}` + "\n", invalid(`"m"`), nil},
		{"a bad notification", `{"jsonrpc":"1.0","method":"notifications/x"}` + "\n", invalid("null"), nil},
		{"nesting deeper than the SDK takes", deep + "\n", invalid("3"), nil},
		{"an empty array", "[]\n", invalid("null"), nil},
		{"an array of non-messages", "[1,2]\n", invalid("null"), nil},
		{"a batch: each call refused with its id", `[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"ping"}]` + "\n",
			[]wantErr{{jsonrpc.CodeInvalidRequest, "11"}, {jsonrpc.CodeInvalidRequest, `"b"`}}, nil},
		{"a string", `"ping"` + "\n", invalid("null"), nil},
		{"null", "null\n", invalid("null"), nil},
		{"a response with neither result nor error", `{"jsonrpc":"2.0","id":5}` + "\n", invalid("null"), nil},
		{"a response with both", `{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"x"}}` + "\n", invalid("null"), nil},
		{"an error without a code", `{"jsonrpc":"2.0","id":5,"error":{"message":"x"}}` + "\n", invalid("null"), nil},
		{"a response with an object id", `{"jsonrpc":"2.0","id":{},"result":{}}` + "\n", invalid("null"), nil},
		{droppedCase, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}` + "\n", nil, nil},
		{"an answer to no request: dropped by the proxy", `{"jsonrpc":"2.0","id":99,"result":{}}` + "\n", nil, nil},
		{"too long", big + "\n", invalid("null"), nil},
		{"empty lines are skipped", "\n\n  \t \n\r\n", nil, nil},
		{"a \\r\\n ending", `{"jsonrpc":"2.0","id":"crlf","method":"ping"}` + "\r\n", nil, []string{`"crlf"`}},
		{"an integer written as 1.0", `{"jsonrpc":"2.0","id":1.0,"method":"ping"}` + "\n", nil, []string{"1"}},
		{"a valid notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"none"}}` + "\n", nil, nil},
	}
	// What the refusal says, where the SDK would refuse the line too, in
	// its own words: the proxy's check must be the one that answered.
	says := map[string]string{
		"jsonrpc 1.0":        `"jsonrpc" must be "2.0"`,
		"no jsonrpc":         `"jsonrpc" must be "2.0"`,
		"a bad notification": `"jsonrpc" must be "2.0"`,
	}
	var log testproc.Buffer
	h := startRawHost(t, testproc.SelfServer(t, "demo", testproc.UniqueMarker("proxy-garbage")), maxLine, &log)
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-host","version":"1"}}}`+"\n")
	h.until(t, `"init"`)
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	refusals, drops := 0, 0
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := fmt.Sprintf(`"after-%d"`, i)
			h.send(t, c.send)
			// The server answers requests concurrently: an expected answer
			// is waited for before the barrier ping, which could otherwise
			// overtake it.
			var msgs []hostMsg
			var answered []string
			for _, id := range c.answered {
				msgs = append(msgs, h.until(t, id)...)
				answered = append(answered, id)
			}
			h.send(t, `{"jsonrpc":"2.0","id":`+after+`,"method":"ping"}`+"\n")
			var got []wantErr
			for _, m := range append(msgs, h.until(t, after)...) {
				if m.Error == nil {
					answered = append(answered, string(m.ID))
					continue
				}
				got = append(got, wantErr{m.Error.Code, string(m.ID)})
				if want := says[c.name]; want != "" && !strings.Contains(m.Error.Message, want) {
					t.Errorf("refused with %q; want it to say %q", m.Error.Message, want)
				}
				if !strings.Contains(m.line, `"id":`) {
					t.Errorf("an error response without an id member: %s", m.line)
				}
			}
			if !slices.Equal(got, c.want) || !slices.Equal(answered, c.answered) {
				t.Errorf("errors %v, answered %v; want errors %v, answered %v", got, answered, c.want, c.answered)
			}
			if len(c.want) > 0 {
				refusals++
			}
			if c.name == droppedCase {
				drops++
			}
		})
	}
	text := log.String()
	if n, d := strings.Count(text, "refused a message from the host"), strings.Count(text, "dropped a message from the host"); n != refusals || d != drops {
		t.Errorf("the log records %d refusals and %d dropped messages, want %d and %d:\n%s", n, d, refusals, drops, text)
	}
	if strings.Contains(text, strings.Repeat("a", 100)) || strings.Contains(text, "\x1b") || strings.Contains(text, "\x00") {
		t.Errorf("the log holds a refused line in full, or raw control bytes:\n%s", text)
	}
}

// lazyLine is a reader of prefix, n filler bytes and rest, made as it is
// read: the stream is never held anywhere.
type lazyLine struct {
	prefix, rest string
	n, off       int64
}

func (r *lazyLine) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		var seg string
		switch o := r.off; {
		case o < int64(len(r.prefix)):
			seg = r.prefix[o:]
		case o < int64(len(r.prefix))+r.n:
			seg = fillerBlock[:min(int64(len(fillerBlock)), int64(len(r.prefix))+r.n-o)]
		case o < int64(len(r.prefix))+r.n+int64(len(r.rest)):
			seg = r.rest[o-int64(len(r.prefix))-r.n:]
		default:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		c := copy(p[n:], seg)
		n += c
		r.off += int64(c)
	}
	return n, nil
}

var fillerBlock = strings.Repeat("a", 64<<10)

// TestLineReaderBoundsALongLine: a 256 MiB line is read through and
// refused while the reader holds at most its limit, and the line after it
// comes through whole.
func TestLineReaderBoundsALongLine(t *testing.T) {
	const limit = 1 << 20
	const filler = 256 << 20
	prefix := `{"jsonrpc":"2.0","id":1,"method":"x","params":"`
	next := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	src := &lazyLine{prefix: prefix, n: filler, rest: "\"}\n" + next + "\n"}
	lr := newLineReader(src, limit)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	long, err := lr.next()
	runtime.ReadMemStats(&after)
	if err != nil || long.data != nil {
		t.Fatalf("the long line: %d bytes returned, err %v; want it refused", len(long.data), err)
	}
	if want := int64(len(prefix)) + filler + 2; long.size != want {
		t.Errorf("the long line measured %d bytes, want %d", long.size, want)
	}
	if !strings.HasPrefix(string(long.head), prefix) || len(long.head) > 2*logHead {
		t.Errorf("head %q, want the line's first %d bytes", long.head, 2*logHead)
	}
	if lr.peak > limit {
		t.Errorf("the reader held %d bytes of the line, over its limit %d", lr.peak, limit)
	}
	// Everything else in the process allocates little meanwhile: a reader
	// that kept the line would have allocated over 256 MiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*limit {
		t.Errorf("reading the long line allocated %d bytes; want at most %d", alloc, 16*limit)
	}
	l, err := lr.next()
	if err != nil || string(l.data) != next {
		t.Fatalf("the line after the long one: %q, %v", l.data, err)
	}
	if _, err := lr.next(); err != io.EOF {
		t.Fatalf("after the last line: %v, want io.EOF", err)
	}
}

// TestLineReaderLines: the limit is exact, \r stays for the JSON check to
// skip, an empty line is not a refused one, a last line needs no newline.
func TestLineReaderLines(t *testing.T) {
	lr := newLineReader(strings.NewReader("0123456789\n0123456789X\n\nab\r\nlast"), 10)
	want := []struct {
		data string
		size int64
		long bool
	}{{"0123456789", 10, false}, {"", 11, true}, {"", 0, false}, {"ab\r", 3, false}, {"last", 4, false}}
	for i, w := range want {
		l, err := lr.next()
		if err != nil || string(l.data) != w.data || l.size != w.size || (l.data == nil) != w.long {
			t.Errorf("line %d: %q (nil %v), size %d, %v; want %q, size %d, too long %v", i, l.data, l.data == nil, l.size, err, w.data, w.size, w.long)
		}
	}
	if _, err := lr.next(); err != io.EOF {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
}

// TestHostConnConcurrentWrites: messages written at once from many
// goroutines arrive as whole lines, one message each.
func TestHostConnConcurrentWrites(t *testing.T) {
	var out bytes.Buffer // not safe for concurrent use: the connection must serialise
	conn, err := (&HostTransport{In: strings.NewReader(""), Out: &out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const writers, each = 8, 100
	result := json.RawMessage(`{"pad":"` + strings.Repeat("x", 4096) + `"}`)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id, _ := jsonrpc.MakeID(float64(w*each + i))
				if err := conn.Write(context.Background(), &jsonrpc.Response{ID: id, Result: result}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for line := range strings.Lines(out.String()) {
		msg, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("a line that is not one message: %v: %.80q", err, line)
		}
		seen[msg.(*jsonrpc.Response).ID.Raw().(int64)] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct messages arrived, want %d", len(seen), writers*each)
	}
}

// TestHostConnEnds: the end of the input ends Read with io.EOF, every time
// (the host went away); Close ends a Read waiting for input.
func TestHostConnEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // a Read that never returns fails
	defer cancel()
	conn, _ := (&HostTransport{In: strings.NewReader("hello\n" + `{"jsonrpc":"2.0","method":"x"}`), Out: io.Discard}).Connect(ctx)
	if m, err := conn.Read(ctx); err != nil || m.(*jsonrpc.Request).Method != "x" {
		t.Fatalf("after a bad line: %v, %v; want the notification", m, err)
	}
	for range 2 {
		if _, err := conn.Read(ctx); err != io.EOF {
			t.Fatalf("at the end of the input: %v, want io.EOF", err)
		}
	}

	r, w := io.Pipe()
	defer w.Close()
	conn, _ = (&HostTransport{In: r, Out: io.Discard}).Connect(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		errc <- err
	}()
	_ = conn.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, mcp.ErrConnectionClosed) {
			t.Errorf("Read after Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a waiting Read")
	}
}

// TestHostConnCapsItsLog: a host that floods bad lines gets every answer,
// but the log holds the first refusals and then only every 1000th.
func TestHostConnCapsItsLog(t *testing.T) {
	const bad = 2500
	var log, out bytes.Buffer
	in := strings.Repeat("x\n", bad) + `{"jsonrpc":"2.0","method":"x"}` + "\n"
	conn, _ := (&HostTransport{In: strings.NewReader(in), Out: &out, Logger: slog.New(slog.NewTextHandler(&log, nil))}).Connect(context.Background())
	defer conn.Close()
	if _, err := conn.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), `"code":-32700`); n != bad {
		t.Errorf("%d parse errors answered, want %d", n, bad)
	}
	if n, want := strings.Count(log.String(), "refused a message"), refusalsLogged+bad/refusalLogEvery; n != want {
		t.Errorf("%d refusals logged, want %d", n, want)
	}
}
