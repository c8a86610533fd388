package host

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/seal"
)

// EdgeOptions configure the stateless HTTP API (docs/http.md).
type EdgeOptions struct {
	// MaxBody bounds a request body (default 8 MiB).
	MaxBody int64
	// Timeout bounds one request, waiting for an instance included (default
	// 10 s): a request whose time is spent answers 504. A call still running
	// then is cut off at the module's next clock reading (every garbage
	// collection; see Options.Timeout) and its instance discarded.
	Timeout time.Duration
	// ErrorLog receives the full cause of every 500 (a trap's wasm stack
	// trace, which the response leaves out). Nil discards it.
	ErrorLog *log.Logger
	// BaseTag lets a request name its state by tag ("base_tag", with an
	// optional "delta" to append) instead of sending it: the server answers
	// from a warm instance holding exactly that state, keeping each warm
	// state's bytes (its size per warm instance), else 409. A tag then
	// reads and changes its memory like a bearer token (docs/http.md).
	// Off by default; it needs warm instances (ClientOptions.Warm).
	BaseTag bool
	// MaxExpansion bounds what a request's packed state or delta may unpack
	// to: at most this many bytes a byte of its gzip, or ExpansionFloor,
	// whichever is more (default 6; negative: no bound but MaxState). The
	// work and memory of a request then grow with the bytes it sends: a
	// request under 100 kB brings at most 600 kB to import (text that
	// packs 6 to 1 or less), and the states that cost the most a byte to
	// import, short repetitive units, pack better and stop at the floor
	// (docs/limits.md gives what the largest take); a gzip bomb, or a state
	// of a hundred thousand identical units packed into 15 kB, is refused
	// with 413 before anything is imported.
	MaxExpansion int
}

// ExpansionFloor is what a packed state or delta may always unpack to,
// whatever its packed size (EdgeOptions.MaxExpansion): 256 KiB.
const ExpansionFloor = 256 << 10

// EdgeRequest is the body of POST /v1/<export>. State is the user's state,
// a JSON document or a binary state (docs/state-binary.md), gzipped and
// base64-encoded (absent for a new memory); Tag is the tag the server
// returned with it, checked against the state. Format is the form of the
// state the answer carries ("json" or "binary"; default: the request
// state's form, JSON for a new memory); Delta, binary only, asks for only
// what changed (EdgeResponse.Delta).
//
// Instead of State and Tag, a request may send BaseTag, the tag of a state
// the server answered with, and in Delta a segment to append to that state
// (EdgeOptions.BaseTag): the server then serves the warm instance holding
// it, or answers 409 when it holds none.
type EdgeRequest struct {
	State   string          `json:"state,omitempty"`
	Tag     string          `json:"tag,omitempty"`
	BaseTag string          `json:"base_tag,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Format  string          `json:"format,omitempty"`
	Delta   EdgeDelta       `json:"delta,omitzero"`
}

// EdgeDelta is a request's "delta": true (Want) asks for the answer's state
// as a delta; a string (Segment) is a segment of a binary state, packed like
// a state, to append to the state named by "base_tag", and asks for a delta
// answer too.
type EdgeDelta struct {
	Want    bool
	Segment string
}

// MarshalJSON writes the segment when there is one, else the boolean.
func (d EdgeDelta) MarshalJSON() ([]byte, error) {
	if d.Segment != "" {
		return json.Marshal(d.Segment)
	}
	return json.Marshal(d.Want)
}

// UnmarshalJSON reads true, false, null or a string (a packed segment).
func (d *EdgeDelta) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true":
		*d = EdgeDelta{Want: true}
		return nil
	case "false", "null":
		*d = EdgeDelta{}
		return nil
	}
	var seg string
	if err := json.Unmarshal(b, &seg); err != nil || seg == "" {
		return errors.New("delta: want true, false, or a segment to append (a non-empty string, gzipped and base64-encoded)")
	}
	*d = EdgeDelta{Want: true, Segment: seg}
	return nil
}

// EdgeResponse is the answer: the export's result, the new state and its
// tag, and the tag of the state the request was based on. A client that keeps
// the state in a store writes the new state only if the store still holds
// BaseTag; otherwise another request changed the memory in between (a lost
// update) and the client retries on the newer state.
//
// A request with Delta gets, instead of State, a Delta to append to the
// bytes of its state (the tag is then the tag of the two together), or
// State when a whole state is due, or neither when nothing changed.
type EdgeResponse struct {
	Result  json.RawMessage `json:"result"`
	State   string          `json:"state,omitempty"`
	Delta   string          `json:"delta,omitempty"`
	Tag     string          `json:"tag"`
	BaseTag string          `json:"base_tag"`
	Changed bool            `json:"changed"`
}

// EdgeError is the body of every non-200 answer.
type EdgeError struct {
	Error struct {
		Status  int    `json:"status"`
		Export  string `json:"export,omitempty"`
		Message string `json:"message"`
	} `json:"error"`
}

// StateTag is a state document's tag: "sha256:" and the hex SHA-256 of its
// bytes. Exported documents are canonical, so equal memories have equal tags.
func StateTag(doc []byte) string {
	h := sha256.Sum256(doc)
	return "sha256:" + hex.EncodeToString(h[:])
}

// PackState compresses a state document for the wire: gzip, then base64.
func PackState(doc []byte) string {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(doc)
	zw.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// UnpackState reverses PackState, refusing documents over max bytes (the
// error then wraps ErrStateTooLarge).
func UnpackState(s string, max int64) ([]byte, error) { return unpack(s, max, -1) }

// unpack is UnpackState that also refuses a state of more than ratio bytes
// a byte of its gzip (or ExpansionFloor, whichever is more; ratio < 0: no
// such bound), reading no more than that. The error then wraps
// ErrStateTooLarge too.
func unpack(s string, max int64, ratio int) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("state: not base64: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("state: not gzip: %w", err)
	}
	limit := max
	if ratio >= 0 {
		limit = min(max, max64(ExpansionFloor, int64(ratio)*int64(len(raw))))
	}
	doc, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("state: truncated or damaged: %w", err)
	}
	switch {
	case int64(len(doc)) > max:
		return nil, fmt.Errorf("%w: the state document is more than %s uncompressed, the most this host imports into one instance; nothing was imported",
			ErrStateTooLarge, sizeWords(max))
	case int64(len(doc)) > limit:
		return nil, fmt.Errorf("%w: it unpacks to more than %s from %s of gzip, and this server unpacks at most %d bytes a byte, or %s; nothing was imported",
			ErrStateTooLarge, sizeWords(limit), sizeWords(int64(len(raw))), ratio, sizeWords(ExpansionFloor))
	}
	return doc, nil
}

func max64(a, b int64) int64 { return max(a, b) }

// NewEdgeHandler serves the stateless API: POST /v1/<export> runs one export
// on the state carried by the request, on a pooled instance, and returns the
// result with the new state. The server keeps nothing between requests.
func NewEdgeHandler(c *Client, opts EdgeOptions) http.Handler {
	if opts.MaxBody == 0 {
		opts.MaxBody = 8 << 20
	}
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxExpansion == 0 {
		opts.MaxExpansion = 6
	}
	return &edge{c: c, opts: opts}
}

// EdgeExports are the exports the stateless API serves: those whose every
// effect is in the state document the request carries and the response
// returns, so that nothing one request does reaches another (a pooled
// instance is reset before it serves the next request). Other exports are
// refused with 403 (edgeRefused says why).
var EdgeExports = []string{
	"exports", "record", "maintain", "plan", "apply_ops", "get_memory", "rank",
	"add_units", "delete_units", "purge", "select_slate", "export_state", "reset",
}

// edgeRefused are the module's exports the stateless API does not serve, and
// why.
var edgeRefused = map[string]string{
	"load_catalog": "the catalog is server configuration (recmem serve --catalog), shared by every request",
	"import_state": `the state travels in the request's "state" field, with its tag`,
}

type edge struct {
	c    *Client
	opts EdgeOptions
}

func (h *edge) fail(w http.ResponseWriter, status int, export, msg string) {
	var e EdgeError
	e.Error.Status, e.Error.Export, e.Error.Message = status, export, msg
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(e)
}

func (h *edge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	export, ok := strings.CutPrefix(r.URL.Path, "/v1/")
	if !ok || export == "" || strings.Contains(export, "/") {
		h.fail(w, http.StatusNotFound, "", "not found: use POST /v1/<export>")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		h.fail(w, http.StatusMethodNotAllowed, export, "method not allowed: use POST")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.fail(w, http.StatusRequestEntityTooLarge, export, fmt.Sprintf("body: more than %d bytes", h.opts.MaxBody))
			return
		}
		h.fail(w, http.StatusBadRequest, export, "body: "+err.Error())
		return
	}
	var req EdgeRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		h.fail(w, http.StatusBadRequest, export, "body: "+err.Error())
		return
	}
	var doc []byte
	switch {
	case req.BaseTag != "" && (req.State != "" || req.Tag != ""):
		h.fail(w, http.StatusBadRequest, export, `base_tag: send either the state with its tag ("state", "tag") or the tag of a state this server answered with ("base_tag", and a "delta" to append), not both`)
		return
	case req.BaseTag == "" && req.Delta.Segment != "":
		h.fail(w, http.StatusBadRequest, export, `delta: a segment to append needs "base_tag", the tag of the state it appends to (or send the whole state in "state")`)
		return
	case req.State != "":
		if doc, err = unpack(req.State, h.c.MaxState(), h.opts.MaxExpansion); err != nil {
			status := http.StatusBadRequest
			if errors.Is(err, ErrStateTooLarge) {
				status = http.StatusRequestEntityTooLarge
			}
			h.fail(w, status, export, err.Error())
			return
		}
		if msg := h.checkTag(doc, req.Tag); msg != "" {
			h.fail(w, http.StatusUnprocessableEntity, export, msg)
			return
		}
	case req.Tag != "":
		h.fail(w, http.StatusBadRequest, export, "tag: given without a state")
		return
	}
	if why, refused := edgeRefused[export]; refused {
		h.fail(w, http.StatusForbidden, export, fmt.Sprintf("%s is not served by the stateless API: %s", export, why))
		return
	}
	x, ok := engine.Lookup(export)
	if !ok || !slices.Contains(EdgeExports, export) {
		h.fail(w, http.StatusNotFound, export, fmt.Sprintf("unknown export %q", export))
		return
	}
	tag := req.Tag // the tag of the state the request starts from
	var s *Session
	if req.BaseTag != "" {
		status, msg := h.byTag(ctx, &req, &s, &doc, &tag)
		if status != 0 {
			h.fail(w, status, export, msg)
			return
		}
	}
	format := req.Format
	switch {
	case format == "" && engine.IsBinaryState(doc):
		format = "binary"
	case format == "":
		format = "json"
	case format != "json" && format != "binary":
		if s != nil {
			s.Close(context.Background())
		}
		h.fail(w, http.StatusBadRequest, export, fmt.Sprintf(`format: want "json" or "binary", got %q`, format))
		return
	}
	if req.BaseTag != "" {
		// The client holds the state: answer with what changed, when the
		// state stays binary.
		req.Delta.Want = format == "binary" && engine.IsBinaryState(doc)
	}
	if req.Delta.Want && format != "binary" {
		if s != nil {
			s.Close(context.Background())
		}
		h.fail(w, http.StatusBadRequest, export, `delta: only with the binary format ("format": "binary")`)
		return
	}
	if s == nil {
		if s, err = h.c.session(ctx, doc, req.Tag); err != nil {
			h.sessionError(ctx, w, export, err)
			return
		}
	}
	defer s.Close(context.Background())
	baseTag := tag
	if doc == nil {
		// A new memory: "changed" compares with the empty memory's tag.
		empty, err := h.export(ctx, s, format, "")
		if err != nil {
			h.sessionError(ctx, w, export, err)
			return
		}
		baseTag = h.tag(empty)
	}
	result, err := s.Call(ctx, export, req.Input)
	if err != nil {
		var ee *ExportError
		if errors.As(err, &ee) {
			// Refused: the state is as it was (and the state a request by
			// tag started from, before its delta, is warm again).
			s.restoreBase(ctx)
		}
		h.sessionError(ctx, w, export, err)
		return
	}
	resp := EdgeResponse{Result: result, BaseTag: cmp.Or(tag, "new")}
	held := doc // the bytes of the state the client holds after the answer
	// exact: importing held gives the instance's state. It does for the
	// bytes the request brought, and for those with a segment of what
	// changed; a whole state written from a foreign one (a binary state
	// this server did not seal, whose analysis the module took as written)
	// may be a derived form: its JSON analyses the text afresh, a base
	// written after units were removed drops the words no unit uses
	// (Session.exactWhole). The instance is never kept warm under a derived
	// form's tag (issue 22, finding 4).
	exact := true
	switch {
	case !x.Mutates && doc != nil && engine.IsBinaryState(doc) == (format == "binary"):
		// Nothing changed: the state is the one the request brought.
		resp.Tag = tag
		if !req.Delta.Want {
			resp.State = req.State
		}
	case req.Delta.Want && engine.Checksum(doc) != "":
		piece, err := h.export(ctx, s, format, engine.Checksum(doc))
		if err != nil {
			h.sessionError(ctx, w, export, err)
			return
		}
		switch {
		case len(piece) == 0:
			resp.Tag = tag
		case piece[5] == 'B':
			held, exact = piece, s.exactWhole(piece)
			resp.State, resp.Tag = PackState(piece), h.tag(piece)
		default:
			held = AppendState(doc, piece)
			resp.Delta, resp.Tag = PackState(piece), h.tag(held)
		}
	default:
		newDoc, err := h.export(ctx, s, format, "")
		if err != nil {
			h.sessionError(ctx, w, export, err)
			return
		}
		held, exact = newDoc, s.exactWhole(newDoc)
		resp.State, resp.Tag = PackState(newDoc), h.tag(newDoc)
	}
	resp.Changed = resp.Tag != baseTag
	s.held = "" // reset when released, unless the answer's state is exact
	if exact {
		s.held = resp.Tag // the instance holds the answer's state: keep it warm under its tag
		if h.opts.BaseTag {
			s.doc, s.docTag = held, resp.Tag
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// byTag starts a request that names its state by tag (req.BaseTag): the
// warm instance holding that state, with the request's delta applied when
// it has one. It sets *s, *doc and *tag (the state the request starts from
// and its tag), or returns the status and message to answer with: 409 when
// the server holds no such state (the client sends the whole state then).
func (h *edge) byTag(ctx context.Context, req *EdgeRequest, s **Session, doc *[]byte, tag *string) (int, string) {
	resend := `send the whole state in "state" with its "tag"`
	if !h.opts.BaseTag {
		return http.StatusConflict, "base_tag: this server does not serve a state by its tag (recmem serve --base-tag); " + resend
	}
	ss, held, err := h.c.sessionByTag(ctx, req.BaseTag)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return http.StatusGatewayTimeout, "timed out"
	case err != nil:
		h.logf("recmem: base_tag: %v", err)
		return http.StatusInternalServerError, err.Error()
	case ss == nil:
		return http.StatusConflict, fmt.Sprintf("base_tag: this server holds no state %s (it keeps a few states for a while, as a cache, and may have dropped this one or never held it); %s", req.BaseTag, resend)
	}
	if req.Delta.Segment == "" {
		*s, *doc, *tag = ss, held, req.BaseTag
		return 0, ""
	}
	fail := func(status int, msg string) (int, string) {
		ss.Close(context.Background()) // unchanged: stays warm under base_tag
		return status, msg
	}
	seg, err := unpack(req.Delta.Segment, h.c.MaxState(), h.opts.MaxExpansion)
	switch {
	case errors.Is(err, ErrStateTooLarge):
		return fail(http.StatusRequestEntityTooLarge, "delta: "+strings.TrimPrefix(err.Error(), "state: "))
	case err != nil:
		return fail(http.StatusBadRequest, "delta: "+strings.TrimPrefix(err.Error(), "state: "))
	case !engine.IsBinaryState(held):
		return fail(http.StatusBadRequest, "delta: appends to a binary state, and the state of base_tag is a JSON document")
	}
	if h.c.sealKey != nil {
		// A sealed server seals only states it computed from states it
		// sealed: a client's segment must carry this server's seal too
		// (issue 22, finding 1).
		line, bare, sealed := cutSealLine(seg)
		if !sealed {
			return fail(http.StatusUnprocessableEntity, `delta: this server seals its states, and a segment it did not seal is refused: send the change as the export's input (the answer's "delta" is then the server's), or the whole state with its tag`)
		}
		if err := seal.Verify(h.c.sealKey, bare, line); err != nil {
			return fail(http.StatusUnprocessableEntity, "delta: does not match its seal (changed after it was sealed, or sealed with another key)")
		}
		seg = bare
	}
	switch {
	case !engine.IsBinaryState(seg) || len(seg) < 6 || seg[5] != 'S':
		return fail(http.StatusBadRequest, `delta: not a segment of a binary state (a whole state goes in "state", with its "tag")`)
	case int64(len(held)+len(seg)) > h.c.MaxState():
		return fail(http.StatusRequestEntityTooLarge, fmt.Sprintf("delta: the state and its delta pass %s, the most this host imports into one instance; nothing was imported", sizeWords(h.c.MaxState())))
	}
	full := AppendState(held, seg)
	ss.held = "" // the import replaces the state
	if err := ss.importDoc(ctx, full); err != nil {
		var ee *ExportError
		if errors.As(err, &ee) {
			// The module refused the state and kept the one it held.
			ss.held = req.BaseTag
			ss.Close(context.Background())
			return http.StatusBadRequest, "delta: " + ee.Message
		}
		ss.Close(context.Background())
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return http.StatusGatewayTimeout, "timed out"
		}
		h.logf("recmem: base_tag: %v", err)
		return http.StatusInternalServerError, "delta: the module failed while importing the state and its delta; nothing was applied, and the request may be retried"
	}
	ss.from(full)
	ss.base, ss.baseTag = held, req.BaseTag
	*s, *doc, *tag = ss, full, h.tag(full)
	return 0, ""
}

// export writes the session's state in format, as a delta against the
// binary state of checksum base when base is given.
func (h *edge) export(ctx context.Context, s *Session, format, base string) ([]byte, error) {
	in, _ := json.Marshal(engine.ExportStateInput{Format: format, Base: base})
	if format == "json" {
		in = nil
	}
	return s.Call(ctx, engine.ExportState.Name, in)
}

// tag is a state's tag, as the pool keys it: its seal when the client has
// a seal key, else its SHA-256 (StateTag).
func (h *edge) tag(doc []byte) string { return h.c.pool.Tag(doc) }

// checkTag returns why a request's tag does not vouch for its state, or "".
func (h *edge) checkTag(doc []byte, tag string) string {
	if h.c.sealKey == nil {
		if tag != StateTag(doc) {
			return "tag: does not match the state (damaged, or not the state this tag was issued with)"
		}
		return ""
	}
	switch err := seal.Verify(h.c.sealKey, doc, tag); {
	case errors.Is(err, seal.ErrUnsealed):
		return "tag: this server seals its states (hmac-sha256:...); a state without the seal it was given is refused"
	case err != nil:
		return "tag: does not match the state's seal (changed after it was sealed, or sealed with another key)"
	}
	return ""
}

// sessionError maps an error to a status: the export's own error is the
// client's (400), a state too large to import is 413, a spent deadline is
// 504, a trap is 500 with a plain message (its cause, with the wasm stack
// trace, goes to EdgeOptions.ErrorLog), anything else 500.
func (h *edge) sessionError(ctx context.Context, w http.ResponseWriter, export string, err error) {
	var ee *ExportError
	var trap *TrapError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		h.fail(w, http.StatusGatewayTimeout, export, "timed out")
	case errors.As(err, &ee):
		h.fail(w, http.StatusBadRequest, export, ee.Message)
	case errors.Is(err, ErrStateTooLarge):
		h.fail(w, http.StatusRequestEntityTooLarge, export, err.Error())
	case errors.As(err, &trap):
		h.logf("recmem: /v1/%s: %v", export, err)
		h.fail(w, http.StatusInternalServerError, export, fmt.Sprintf(
			"the module failed while running %s (out of memory, or an internal error); nothing was applied, the instance was discarded, and the request may be retried", trap.Export))
	default:
		h.logf("recmem: /v1/%s: %v", export, err)
		h.fail(w, http.StatusInternalServerError, export, err.Error())
	}
}

func (h *edge) logf(format string, a ...any) {
	if h.opts.ErrorLog != nil {
		h.opts.ErrorLog.Printf(format, a...)
	}
}
