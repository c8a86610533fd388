package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/slate"
)

// Client is recmem's typed Go API: one compiled module and a pool of
// instances, for many users at once. The caller holds each user's memory (a
// state document, see docs/state-format.md): Session imports it into a free
// instance, typed methods run the exports, Export hands it back. A Client is
// safe for concurrent use; a Session is not.
type Client struct {
	rt   *Runtime
	pool *Pool
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
}

// NewClient compiles the module (or loads it from the cache) and prepares
// the pool. Instances are created on demand.
func NewClient(ctx context.Context, opts ClientOptions) (*Client, error) {
	rt, err := Open(ctx, opts.Options)
	if err != nil {
		return nil, err
	}
	pool := rt.NewPool(opts.Instances)
	if cat := opts.Catalog; cat != nil {
		pool.init = func(ctx context.Context, in *Instance) error {
			if _, err := in.CallContext(ctx, "load_catalog", cat); err != nil {
				return fmt.Errorf("host: loading the catalog: %w", err)
			}
			return nil
		}
	}
	return &Client{rt: rt, pool: pool}, nil
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
func (c *Client) Session(ctx context.Context, state []byte) (*Session, error) {
	in, err := c.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	s := &Session{c: c, in: in}
	if state != nil {
		if err := s.Import(ctx, state); err != nil {
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

// Call runs any export with raw input and returns its raw output: the
// escape hatch for exports without a typed method. An export's own error is
// an *ExportError.
func (s *Session) Call(ctx context.Context, export string, input []byte) ([]byte, error) {
	if s.in == nil {
		return nil, errors.New("host: session is closed")
	}
	raw, err := s.in.CallContext(ctx, export, input)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if msg := err.Error(); strings.HasPrefix(msg, export+": ") {
			return nil, &ExportError{Export: export, Message: msg}
		}
		return nil, err
	}
	return raw, nil
}

// Caller is the session as an engine.Caller under ctx, for the typed calls
// of pkg/engine (engine.Rank.Call(s.Caller(ctx), in)): every export, typed
// by its declaration, with no method of its own here.
func (s *Session) Caller(ctx context.Context) engine.Caller { return sessionCaller{ctx, s} }

type sessionCaller struct {
	ctx context.Context
	s   *Session
}

func (c sessionCaller) Call(export string, input []byte) ([]byte, error) {
	return c.s.Call(c.ctx, export, input)
}

// Signal is one observation: User did Action on Item (with metadata Meta) at
// Time, in unix seconds. Actions: purchase, like, click, view, rate (with
// Rating 1 to 5), dislike, skip.
type Signal = memory.Signal

// The typed methods' outputs, as pkg/engine declares them.
type (
	RecordResult   = engine.RecordOutput
	MaintainResult = engine.MaintainOutput
	ApplyResult    = engine.ApplyOpsOutput
	MemoryView     = engine.MemoryView
	Candidate      = engine.RankCandidate
	RankResult     = engine.RankOutput
)

// Record appends signals to the event memory and maintains with the named
// scheduler: "fixed" (every B signals, the default), "planner", or "none".
func (s *Session) Record(ctx context.Context, signals []Signal, scheduler string) (*RecordResult, error) {
	out, err := engine.Record.Call(s.Caller(ctx), engine.RecordInput{Signals: signals, Maintain: scheduler})
	return &out, err
}

// Maintain asks the scheduler ("fixed" or "planner") whether to maintain at
// time now (0: the memory's clock) and applies its decision.
func (s *Session) Maintain(ctx context.Context, now int64, scheduler string, force bool) (*MaintainResult, error) {
	in := engine.MaintainInput{Scheduler: scheduler, Force: force}
	if now > 0 {
		in.Now = &now
	}
	out, err := engine.Maintain.Call(s.Caller(ctx), in)
	return &out, err
}

// ApplyOps applies ops atomically, as trigger ("user", "planner" or "llm").
func (s *Session) ApplyOps(ctx context.Context, ops []memory.Op, trigger string) (*ApplyResult, error) {
	out, err := engine.ApplyOps.Call(s.Caller(ctx), engine.ApplyOpsInput{Ops: ops, Trigger: trigger})
	return &out, err
}

// Memory returns the tiers and the newest journalLimit entries (0: all).
func (s *Session) Memory(ctx context.Context, journalLimit int) (*MemoryView, error) {
	out, err := engine.GetMemory.Call(s.Caller(ctx), engine.GetMemoryInput{JournalLimit: journalLimit})
	return &out, err
}

// Rank orders candidates for the user, steered by an optional instruction,
// keeping the top k (0: all). It needs ClientOptions.Catalog.
func (s *Session) Rank(ctx context.Context, candidates []Candidate, instruction string, k int) (*RankResult, error) {
	in := engine.RankInput{Candidates: candidates, K: k}
	if instruction != "" {
		in.Instruction = &instruction
	}
	out, err := engine.Rank.Call(s.Caller(ctx), in)
	return &out, err
}

// AddUnits stores agent-memory units (dialogue turns or records).
func (s *Session) AddUnits(ctx context.Context, units []slate.Unit) (*engine.AddUnitsOutput, error) {
	out, err := engine.AddUnits.Call(s.Caller(ctx), engine.AddUnitsInput{Units: units})
	return &out, err
}

// DeleteUnits removes units by id, from the store and its indexes.
func (s *Session) DeleteUnits(ctx context.Context, ids []string) (*engine.DeleteUnitsOutput, error) {
	out, err := engine.DeleteUnits.Call(s.Caller(ctx), engine.DeleteUnitsInput{IDs: ids})
	return &out, err
}

// Purge removes a whole session, or every unit of a user.
func (s *Session) Purge(ctx context.Context, session, user string) (*engine.PurgeOutput, error) {
	out, err := engine.Purge.Call(s.Caller(ctx), engine.PurgeInput{Session: session, User: user})
	return &out, err
}

// SelectSlate picks the units that enter a context of at most req.Budget
// tokens for req.Query, with no LLM call.
func (s *Session) SelectSlate(ctx context.Context, req slate.Request) (*slate.Result, error) {
	return engine.SelectSlate.Call(s.Caller(ctx), req)
}

// Export returns the user's whole state document, as the module wrote it.
func (s *Session) Export(ctx context.Context) ([]byte, error) {
	return s.Call(ctx, engine.ExportState.Name, nil)
}

// Import replaces the session's state with a state document, which is
// validated first: on error nothing changes.
func (s *Session) Import(ctx context.Context, state []byte) error {
	_, err := engine.ImportState.Call(s.Caller(ctx), engine.Raw(state))
	return err
}
