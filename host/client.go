package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rank"
	"github.com/recmem/recmem/pkg/seal"
	"github.com/recmem/recmem/pkg/slate"
)

// Client is recmem's typed Go API: one compiled module and a pool of
// instances, for many users at once. The caller holds each user's memory (a
// state document, see docs/state-format.md): Session imports it into a free
// instance, typed methods run the exports, Export hands it back. A Client is
// safe for concurrent use; a Session is not.
type Client struct {
	rt       *Runtime
	pool     *Pool
	maxState int64
	sealKey  []byte
}

// ClientOptions configure a Client: the module and its limits (Options), the
// size of the instance pool, and an optional catalog asset.
type ClientOptions struct {
	Options
	// Instances is the most instances run at once (default: the cores).
	Instances int
	// Catalog, when set, is loaded into every instance once (load_catalog),
	// before its first session: ranking needs it.
	Catalog []byte
	// MaxState is the largest state document, in bytes, that Session
	// imports: a larger one is refused with ErrStateTooLarge before anything
	// is imported. The default, 0, is the instance memory cap divided by
	// StateMemoryFactor (5.1 MiB for the default 512 MiB).
	MaxState int64
	// SealKey, when set (at least 32 bytes), authenticates every state
	// document the client hands out (pkg/seal): Export returns the document
	// sealed with this key, and Session and Import open only documents
	// sealed with it, refusing an unsealed one (seal.ErrUnsealed) and an
	// altered, forged or foreign one (seal.ErrMismatch) before anything is
	// imported. The stateless API tags its states with the seal instead
	// (docs/http.md). Without a key, a document's checksum guards against
	// damage only: anyone can recompute it.
	SealKey []byte
}

// StateMemoryFactor is the instance memory that importing a state document
// may take, per byte of the document: measured at 69 to 76 bytes for
// documents of short agent-memory units (the most per byte: every unit has
// its index entries and vector), about 26 for long units. The default state
// limit (ClientOptions.MaxState) divides the memory cap by 100, which leaves
// a quarter of the cap for the module, a catalog and the call's output.
const StateMemoryFactor = 100

// ErrStateTooLarge is the error of a state document larger than the
// client's MaxState.
var ErrStateTooLarge = errors.New("state: too large to serve")

// NewClient compiles the module (or loads it from the cache) and prepares
// the pool. Instances are created on demand.
func NewClient(ctx context.Context, opts ClientOptions) (*Client, error) {
	if opts.SealKey != nil {
		if err := seal.CheckKey(opts.SealKey); err != nil {
			return nil, fmt.Errorf("host: SealKey: %w", err)
		}
	}
	rt, err := Open(ctx, opts.Options)
	if err != nil {
		return nil, err
	}
	pool := rt.NewPool(opts.Instances)
	maxState := opts.MaxState
	if maxState <= 0 {
		maxState = rt.MaxMemory() / StateMemoryFactor
	}
	if cat := opts.Catalog; cat != nil {
		pool.init = func(ctx context.Context, in *Instance) error {
			if _, err := in.CallContext(ctx, "load_catalog", cat); err != nil {
				return fmt.Errorf("host: loading the catalog: %w", err)
			}
			return nil
		}
	}
	return &Client{rt: rt, pool: pool, maxState: maxState, sealKey: bytes.Clone(opts.SealKey)}, nil
}

// Sealed reports whether the client seals its state documents (SealKey).
func (c *Client) Sealed() bool { return c.sealKey != nil }

// MaxState is the largest state document, in bytes, that Session imports.
func (c *Client) MaxState() int64 { return c.maxState }

// checkStateSize refuses a document larger than MaxState, in words.
func (c *Client) checkStateSize(n int) error {
	if int64(n) <= c.maxState {
		return nil
	}
	return fmt.Errorf("%w: the state document is %s, more than the %s this host imports into one instance; nothing was imported",
		ErrStateTooLarge, sizeWords(int64(n)), sizeWords(c.maxState))
}

// Close releases the idle instances and the compiled module.
func (c *Client) Close(ctx context.Context) error {
	c.pool.Close(ctx)
	return c.rt.Close(ctx)
}

// ExportError is an export's own error: its message names the field at
// fault, and the user's state is unchanged.
type ExportError struct {
	Export  string
	Message string
}

func (e *ExportError) Error() string { return e.Message }

// Session is one user's memory on one instance. Close returns the instance
// to the pool (wiping the memory from it); export the state first.
type Session struct {
	c  *Client
	in *Instance
}

// Session takes a free instance (waiting for one if all are busy) and imports
// state into it; nil state starts an empty memory with default parameters.
// With a SealKey, state must be a document this client sealed.
func (c *Client) Session(ctx context.Context, state []byte) (*Session, error) {
	if state == nil {
		return c.session(ctx, nil)
	}
	doc, err := c.open(state)
	if err != nil {
		return nil, err
	}
	return c.session(ctx, doc)
}

// open checks a document's size and, with a SealKey, its seal, and returns
// the bare document.
func (c *Client) open(state []byte) ([]byte, error) {
	if err := c.checkStateSize(len(state)); err != nil {
		return nil, err
	}
	if c.sealKey == nil {
		return state, nil
	}
	doc, err := seal.Open(c.sealKey, state)
	if err != nil {
		return nil, fmt.Errorf("host: state: %w", err)
	}
	return doc, nil
}

// session is Session on a bare (unsealed, checked) document.
func (c *Client) session(ctx context.Context, doc []byte) (*Session, error) {
	in, err := c.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	s := &Session{c: c, in: in}
	if doc != nil {
		if err := s.importDoc(ctx, doc); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	return s, nil
}

// Close returns the instance to the pool. The session must not be used after.
func (s *Session) Close(ctx context.Context) {
	if s.in != nil {
		s.c.pool.Release(ctx, s.in, false)
		s.in = nil
	}
}

// call runs an export with v encoded as input and decodes its output into out.
func (s *Session) call(ctx context.Context, export string, v, out any) error {
	if s.in == nil {
		return errors.New("host: session is closed")
	}
	var input []byte
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("host: encoding %s input: %w", export, err)
		}
		input = b
	}
	raw, err := s.in.CallContext(ctx, export, input)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if msg := err.Error(); strings.HasPrefix(msg, export+": ") {
			return &ExportError{Export: export, Message: msg}
		}
		return err
	}
	if out == nil {
		return nil
	}
	if b, ok := out.(*[]byte); ok {
		*b = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("host: decoding %s output: %w", export, err)
	}
	return nil
}

// Signal is one observation: User did Action on Item (with metadata Meta) at
// Time, in unix seconds. Actions: purchase, like, click, view, rate (with
// Rating 1 to 5), dislike, skip. ClientID, optional, makes a retry harmless:
// give each action its own id and send the same id when retrying it; a
// repeated id is acknowledged (RecordResult.Repeated) and not recorded again.
type Signal struct {
	User     string              `json:"user"`
	Item     string              `json:"item"`
	Action   string              `json:"action"`
	Rating   int                 `json:"rating,omitempty"`
	Meta     map[string][]string `json:"meta,omitempty"`
	Time     int64               `json:"time"`
	ClientID string              `json:"client_id,omitempty"`
}

// RecordResult is what Record did: events added and evicted, the lifecycle
// entries of any maintenance, and the LLM outcomes when LLM steps ran.
type RecordResult struct {
	memory.RecordResult
	Summary memory.Summary `json:"summary"`
	LLM     []llm.Outcome  `json:"llm,omitempty"`
}

// Record appends signals to the event memory and maintains with the named
// scheduler: "fixed" (every B signals, the default), "planner", or "none".
func (s *Session) Record(ctx context.Context, signals []Signal, scheduler string) (*RecordResult, error) {
	in := map[string]any{"signals": signals}
	if scheduler != "" {
		in["maintain"] = scheduler
	}
	var out RecordResult
	return &out, s.call(ctx, "record", in, &out)
}

// MaintainResult is a maintenance decision and the entries it applied.
type MaintainResult struct {
	memory.Maintenance
	Summary memory.Summary `json:"summary"`
	LLM     []llm.Outcome  `json:"llm,omitempty"`
}

// Maintain asks the scheduler ("fixed" or "planner") whether to maintain at
// time now (0: the memory's clock) and applies its decision.
func (s *Session) Maintain(ctx context.Context, now int64, scheduler string, force bool) (*MaintainResult, error) {
	in := map[string]any{"scheduler": scheduler, "force": force}
	if now > 0 {
		in["now"] = now
	}
	if scheduler == "" {
		in["scheduler"] = "fixed"
	}
	var out MaintainResult
	return &out, s.call(ctx, "maintain", in, &out)
}

// ApplyResult lists the journal entries a batch of ops wrote.
type ApplyResult struct {
	Ops     []memory.Entry `json:"ops"`
	Summary memory.Summary `json:"summary"`
	LLM     []llm.Outcome  `json:"llm,omitempty"`
}

// ApplyOps applies ops atomically, as trigger ("user", "planner" or "llm").
func (s *Session) ApplyOps(ctx context.Context, ops []memory.Op, trigger string) (*ApplyResult, error) {
	in := map[string]any{"ops": ops}
	if trigger != "" {
		in["trigger"] = trigger
	}
	var out ApplyResult
	return &out, s.call(ctx, "apply_ops", in, &out)
}

// MemoryView is the three tiers, the journal and the parameters.
type MemoryView = engine.MemoryView

// Memory returns the tiers and the newest journalLimit entries (0: all).
func (s *Session) Memory(ctx context.Context, journalLimit int) (*MemoryView, error) {
	var out MemoryView
	return &out, s.call(ctx, "get_memory", map[string]int{"journal_limit": journalLimit}, &out)
}

// Candidate is an item to rank, by catalog id, with optional metadata for
// items the catalog does not describe.
type Candidate struct {
	ID   string              `json:"id"`
	Meta map[string][]string `json:"meta,omitempty"`
}

// RankResult is the ranking, best first, each item with its explanation.
type RankResult struct {
	Ranking []rank.Ranked      `json:"ranking"`
	Ranker  string             `json:"ranker"`
	Weights map[string]float64 `json:"weights"`
}

// Rank orders candidates for the user, steered by an optional instruction,
// keeping the top k (0: all). It needs ClientOptions.Catalog.
func (s *Session) Rank(ctx context.Context, candidates []Candidate, instruction string, k int) (*RankResult, error) {
	in := map[string]any{"candidates": candidates}
	if instruction != "" {
		in["instruction"] = instruction
	}
	if k > 0 {
		in["k"] = k
	}
	var out RankResult
	return &out, s.call(ctx, "rank", in, &out)
}

// UnitCounts is the size of the agent memory after a change.
type UnitCounts struct {
	Added    int `json:"added,omitempty"`
	Deleted  int `json:"deleted,omitempty"`
	Purged   int `json:"purged,omitempty"`
	Units    int `json:"units"`
	Sessions int `json:"sessions"`
}

// AddUnits stores agent-memory units (dialogue turns or records).
func (s *Session) AddUnits(ctx context.Context, units []slate.Unit) (*UnitCounts, error) {
	var out UnitCounts
	return &out, s.call(ctx, "add_units", map[string]any{"units": units}, &out)
}

// DeleteUnits removes units by id, from the store and its indexes.
func (s *Session) DeleteUnits(ctx context.Context, ids []string) (*UnitCounts, error) {
	var out UnitCounts
	return &out, s.call(ctx, "delete_units", map[string]any{"ids": ids}, &out)
}

// Purge removes a whole session, or every unit of a user.
func (s *Session) Purge(ctx context.Context, session, user string) (*UnitCounts, error) {
	in := map[string]string{}
	if session != "" {
		in["session"] = session
	}
	if user != "" {
		in["user"] = user
	}
	var out UnitCounts
	return &out, s.call(ctx, "purge", in, &out)
}

// SelectSlate picks the units that enter a context of at most req.Budget
// tokens for req.Query, with no LLM call.
func (s *Session) SelectSlate(ctx context.Context, req slate.Request) (*slate.Result, error) {
	var out slate.Result
	return &out, s.call(ctx, "select_slate", req, &out)
}

// Export returns the user's whole state document, sealed when the client
// has a SealKey.
func (s *Session) Export(ctx context.Context) ([]byte, error) {
	doc, err := s.exportDoc(ctx)
	if err != nil || s.c.sealKey == nil {
		return doc, err
	}
	return seal.Seal(s.c.sealKey, doc), nil
}

// exportDoc returns the bare state document.
func (s *Session) exportDoc(ctx context.Context) ([]byte, error) {
	var out []byte
	if err := s.call(ctx, "export_state", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Import replaces the session's state with a state document, which is
// validated first: on a module error (an *ExportError) nothing changes. A
// document larger than the client's MaxState is refused before the import
// (ErrStateTooLarge), and so is one without this client's seal when it has a
// SealKey (seal.ErrUnsealed, seal.ErrMismatch); a trap (*TrapError) leaves
// the session unusable.
func (s *Session) Import(ctx context.Context, state []byte) error {
	if s.in == nil {
		return errors.New("host: session is closed")
	}
	doc, err := s.c.open(state)
	if err != nil {
		return err
	}
	return s.importDoc(ctx, doc)
}

// importDoc is Import of a bare (unsealed, checked) document.
func (s *Session) importDoc(ctx context.Context, doc []byte) error {
	if s.in == nil {
		return errors.New("host: session is closed")
	}
	if _, err := s.in.CallContext(ctx, "import_state", doc); err != nil {
		var trap *TrapError
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &trap), errors.Is(err, ErrInstanceTrapped):
			return err
		}
		return &ExportError{Export: "import_state", Message: err.Error()}
	}
	return nil
}

// Call runs any export with raw JSON input and returns its raw JSON output:
// the escape hatch for exports without a typed method.
func (s *Session) Call(ctx context.Context, export string, input []byte) ([]byte, error) {
	var out []byte
	if err := s.call(ctx, export, json.RawMessage(input), &out); err != nil {
		return nil, err
	}
	return out, nil
}
