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
	// 10 s): a request whose time is spent before a call into the module
	// starts answers 504. A call already running is cut off only when the
	// Runtime has its own Options.Timeout.
	Timeout time.Duration
	// ErrorLog receives the full cause of every 500 (a trap's wasm stack
	// trace, which the response leaves out). Nil discards it.
	ErrorLog *log.Logger
}

// EdgeRequest is the body of POST /v1/<export>. State is the user's state,
// a JSON document or a binary state (docs/state-binary.md), gzipped and
// base64-encoded (absent for a new memory); Tag is the tag the server
// returned with it, checked against the state. Format is the form of the
// state the answer carries ("json" or "binary"; default: the request
// state's form, JSON for a new memory); Delta, binary only, asks for only
// what changed (EdgeResponse.Delta).
type EdgeRequest struct {
	State  string          `json:"state,omitempty"`
	Tag    string          `json:"tag,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`
	Format string          `json:"format,omitempty"`
	Delta  bool            `json:"delta,omitempty"`
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
func UnpackState(s string, max int64) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("state: not base64: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("state: not gzip: %w", err)
	}
	doc, err := io.ReadAll(io.LimitReader(zr, max+1))
	if err != nil {
		return nil, fmt.Errorf("state: truncated or damaged: %w", err)
	}
	if int64(len(doc)) > max {
		return nil, fmt.Errorf("%w: the state document is more than %s uncompressed, the most this host imports into one instance; nothing was imported",
			ErrStateTooLarge, sizeWords(max))
	}
	return doc, nil
}

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
	if req.State != "" {
		if doc, err = UnpackState(req.State, h.c.MaxState()); err != nil {
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
	} else if req.Tag != "" {
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
	format := req.Format
	switch {
	case format == "" && engine.IsBinaryState(doc):
		format = "binary"
	case format == "":
		format = "json"
	case format != "json" && format != "binary":
		h.fail(w, http.StatusBadRequest, export, fmt.Sprintf(`format: want "json" or "binary", got %q`, format))
		return
	}
	if req.Delta && format != "binary" {
		h.fail(w, http.StatusBadRequest, export, `delta: only with the binary format ("format": "binary")`)
		return
	}
	s, err := h.c.session(ctx, doc, req.Tag)
	if err != nil {
		h.sessionError(ctx, w, export, err)
		return
	}
	defer s.Close(context.Background())
	baseTag := req.Tag
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
		h.sessionError(ctx, w, export, err)
		return
	}
	resp := EdgeResponse{Result: result, BaseTag: cmp.Or(req.Tag, "new")}
	switch {
	case !x.Mutates && doc != nil && engine.IsBinaryState(doc) == (format == "binary"):
		// Nothing changed: the state is the one the request brought.
		resp.Tag = req.Tag
		if !req.Delta {
			resp.State = req.State
		}
	case req.Delta && engine.Checksum(doc) != "":
		piece, err := h.export(ctx, s, format, engine.Checksum(doc))
		if err != nil {
			h.sessionError(ctx, w, export, err)
			return
		}
		switch {
		case len(piece) == 0:
			resp.Tag = req.Tag
		case piece[5] == 'B':
			resp.State, resp.Tag = PackState(piece), h.tag(piece)
		default:
			resp.Delta, resp.Tag = PackState(piece), h.tag(AppendState(doc, piece))
		}
	default:
		newDoc, err := h.export(ctx, s, format, "")
		if err != nil {
			h.sessionError(ctx, w, export, err)
			return
		}
		resp.State, resp.Tag = PackState(newDoc), h.tag(newDoc)
	}
	resp.Changed = resp.Tag != baseTag
	s.held = resp.Tag // the instance holds the answer's state: keep it warm under its tag
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
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

// tag is a state's tag: its seal when the client has a seal key, else its
// SHA-256 (StateTag).
func (h *edge) tag(doc []byte) string {
	if h.c.sealKey != nil {
		return seal.Sum(h.c.sealKey, doc)
	}
	return StateTag(doc)
}

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
