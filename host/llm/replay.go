package llm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	contract "github.com/recmem/recmem/pkg/llm"
)

// Exchange is one recorded request and its response, one JSON object per line
// of a recording file. Hash is Request.Hash(); the key is never recorded.
type Exchange struct {
	Hash     string            `json:"hash"`
	Source   string            `json:"source,omitempty"` // e.g. "hand-written" or the model's name
	Request  contract.Request  `json:"request"`
	Response contract.Response `json:"response"`
	// LatencyMS is how long the exchange took when it was recorded, in
	// milliseconds (queueing at the endpoint included); a replay ignores it.
	LatencyMS int64 `json:"latency_ms,omitempty"`
}

// Recorder passes exchanges to Next and appends each one to a file.
type Recorder struct {
	Next   contract.Completer
	Source string
	mu     sync.Mutex
	w      io.Writer
}

// NewRecorder records to w (typically a file opened for append).
func NewRecorder(next contract.Completer, w io.Writer, source string) *Recorder {
	return &Recorder{Next: next, w: w, Source: source}
}

// Complete implements contract.Completer.
func (r *Recorder) Complete(ctx context.Context, req contract.Request) (contract.Response, error) {
	start := time.Now()
	resp, err := r.Next.Complete(ctx, req)
	if err != nil {
		return resp, err
	}
	ms := time.Since(start).Milliseconds()
	line, err := json.Marshal(Exchange{Hash: req.Hash(), Source: r.Source, Request: req, Response: resp, LatencyMS: ms})
	if err != nil {
		return resp, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.w.Write(append(line, '\n')); err != nil {
		return resp, fmt.Errorf("llm: recording exchange: %w", err)
	}
	return resp, nil
}

// Replayer answers requests from a recording by request hash, so a run with a
// model can be repeated exactly, and tested, without the model.
type Replayer struct {
	mu     sync.RWMutex // Resume adds the answers it learns
	byHash map[string]contract.Response
	source string // the first line's source
}

// Source is the source the recording's first line names (the model, its
// quantization and runtime), or "" for an empty recording.
func (r *Replayer) Source() string { return r.source }

// ErrNotRecorded is returned for a request the recording does not hold.
var ErrNotRecorded = errors.New("llm: replay: request not in the recording")

// LoadReplayer reads a recording file.
func LoadReplayer(path string) (*Replayer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("llm: replay: %w", err)
	}
	defer f.Close()
	return ReadReplayer(f)
}

// ReadReplayer reads a recording, one Exchange per line. A line whose hash
// does not match its request is refused: a recording edited by hand must be
// re-hashed (recmem llm rehash).
func ReadReplayer(r io.Reader) (*Replayer, error) {
	rp := &Replayer{byHash: map[string]contract.Response{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var ex Exchange
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return nil, fmt.Errorf("llm: replay: line %d: %w", n, err)
		}
		if h := ex.Request.Hash(); ex.Hash != h {
			return nil, fmt.Errorf("llm: replay: line %d: hash %s does not match its request (%s)", n, ex.Hash, h)
		}
		rp.byHash[ex.Hash] = ex.Response
		if rp.source == "" {
			rp.source = ex.Source
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("llm: replay: %w", err)
	}
	return rp, nil
}

// Len is the number of recorded exchanges.
func (r *Replayer) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byHash)
}

// answer returns the recorded response to the request of hash h.
func (r *Replayer) answer(h string) (contract.Response, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	resp, ok := r.byHash[h]
	return resp, ok
}

// Complete implements contract.Completer.
func (r *Replayer) Complete(_ context.Context, req contract.Request) (contract.Response, error) {
	resp, ok := r.answer(req.Hash())
	if !ok {
		return contract.Response{Error: fmt.Sprintf("%v: purpose %s, hash %s", ErrNotRecorded, req.Purpose, req.Hash())}, nil
	}
	return resp, nil
}

// Resume answers the requests a recording already holds from it and asks Next
// for the others, so that an interrupted recording run can be started again
// without asking the model twice: with Next a Recorder appending to the same
// file, the file ends up holding every exchange once. An answer Next gives is
// kept too, so that a request asked again in the same run (the parse step
// asks the same question for every user) reaches the model once.
type Resume struct {
	Known *Replayer
	Next  contract.Completer
}

// Complete implements contract.Completer. A recorded error response is asked again.
func (r Resume) Complete(ctx context.Context, req contract.Request) (contract.Response, error) {
	h := req.Hash()
	if resp, ok := r.Known.answer(h); ok && resp.Error == "" {
		return resp, nil
	}
	resp, err := r.Next.Complete(ctx, req)
	if err == nil && resp.Error == "" {
		r.Known.mu.Lock()
		r.Known.byHash[h] = resp
		r.Known.mu.Unlock()
	}
	return resp, err
}
