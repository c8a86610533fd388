package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/memory"
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
	// Warm is how many instances the client keeps warm: idle, still holding
	// the state a session last imported or exported, keyed by its tag (the
	// SHA-256 of the state's bytes, or with a SealKey their seal). A
	// session opened on a state whose tag matches skips the import. The
	// default, 0, is Instances; a negative value keeps none. It is a cache,
	// never the authority: the tag is computed from the bytes the caller
	// brings, every time, and an instance is kept warm only under bytes
	// whose import gives exactly its state (the bytes it imported, those
	// with the segments it exported since, or a state the module wrote from
	// text or sealed input: never the JSON form of a binary state whose
	// analysis a client may have forged, issue 22).
	Warm int
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
	if opts.SealKey != nil {
		pool.SetTagKey(opts.SealKey) // a state's tag is its seal
	}
	switch {
	case opts.Warm == 0:
		pool.SetWarm(pool.Size())
	case opts.Warm > 0:
		pool.SetWarm(opts.Warm)
	}
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
// to the pool (wiping the memory from it, or keeping it warm when the state
// is the one last imported or exported); export the state first.
type Session struct {
	c  *Client
	in *Instance
	// held is the tag of the bytes the caller holds, when importing them
	// gives exactly the instance's state (nothing changed since they were
	// imported or exported), else "": Close keeps the instance warm under
	// it. For a binary state, sum is the engine's checksum of it
	// (export_state's base) and hash the running hash (the pool's) of its
	// bytes so far, so that a delta's tag costs the delta's bytes only.
	held string
	sum  string
	hash hash.Hash
	// foreign: the instance's state came from a binary state that this
	// host did not seal, whose analysis (tokens, words, vectors) the module
	// took as written; removed: units were removed from it since (by a
	// segment it imported, delete_units or purge), whose words the
	// instance still holds though no unit names them. derived: the bytes
	// the caller holds were written whole from a foreign state and are not
	// its exact form (its JSON form analyses the text afresh; a base written
	// after a removal drops the words no unit uses). Importing derived bytes
	// would not give the instance's state, so they never key a warm
	// instance (exactWhole).
	foreign, removed, derived bool
	// doc is the bytes of the state of tag docTag: when that is still the
	// state held, the warm instance keeps them, for requests that name the
	// state by its tag alone (the stateless API's base_tag).
	doc    []byte
	docTag string
	// base is the state a request by tag started from when it brought a
	// delta (imported with it), and baseTag its tag: a call the module
	// refuses leaves that state warm again, as it was (restoreBase).
	base    []byte
	baseTag string
	// Warm reports whether the session started on a warm instance: its
	// state was not imported.
	Warm bool
}

// Usage returns the longest any instance was held by one session, and the
// most its memory grew meanwhile (Pool.Usage).
func (c *Client) Usage() Usage { return c.pool.Usage() }

// WarmStats returns the counts of the client's warm instances.
func (c *Client) WarmStats() WarmStats { return c.pool.WarmStats() }

// Session takes a free instance (waiting for one if all are busy) and imports
// state into it: a JSON document or a binary state (docs/state-binary.md).
// A warm instance already holding state serves it without the import. Nil
// state starts an empty memory with default parameters. With a SealKey,
// state must be a document (or binary pieces) this client sealed.
func (c *Client) Session(ctx context.Context, state []byte) (*Session, error) {
	if state == nil {
		return c.session(ctx, nil, "")
	}
	doc, err := c.open(state)
	if err != nil {
		return nil, err
	}
	h := c.pool.newHash()
	h.Write(doc)
	s, err := c.session(ctx, doc, c.pool.tagOf(h))
	if err != nil {
		return nil, err
	}
	s.track(doc, h)
	return s, nil
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
	if IsBinaryState(state) {
		doc, err := openPieces(c.sealKey, state)
		if err != nil {
			return nil, fmt.Errorf("host: state: %w", err)
		}
		return doc, nil
	}
	doc, err := seal.Open(c.sealKey, state)
	if err != nil {
		return nil, fmt.Errorf("host: state: %w", err)
	}
	return doc, nil
}

// session is Session on a bare (unsealed, checked) document whose tag
// (the pool's tag of doc, computed from doc by the caller) picks a warm
// instance holding it, if any.
func (c *Client) session(ctx context.Context, doc []byte, tag string) (*Session, error) {
	if doc == nil {
		tag = ""
	}
	in, warm, err := c.pool.acquireTag(ctx, tag)
	if err != nil {
		return nil, err
	}
	s := &Session{c: c, in: in, Warm: warm}
	s.from(doc)
	if doc != nil && !warm {
		if err := s.importDoc(ctx, doc); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	s.held = tag
	return s, nil
}

// foreign reports whether importing doc takes an analysis the module did
// not make as written: a binary state this client did not seal.
func (c *Client) foreign(doc []byte) bool { return c.sealKey == nil && engine.IsBinaryState(doc) }

// from records that the instance's state is the import of doc: foreign or
// not, and with units removed when it has segments (which may remove some).
func (s *Session) from(doc []byte) {
	s.foreign, s.derived = s.c.foreign(doc), false
	s.removed = s.foreign && hasSegments(doc)
}

// hasSegments reports whether a bare binary state has a segment after its
// base.
func hasSegments(doc []byte) bool {
	n, err := pieceLen(doc)
	return err == nil && n < len(doc)
}

// exactWhole reports whether doc, a whole state the module wrote from the
// instance's state, is its exact form: importing it gives that state. It is
// unless the state is foreign and doc is its JSON form, or a base written
// after a removal.
func (s *Session) exactWhole(doc []byte) bool {
	return !s.foreign || engine.IsBinaryState(doc) && !s.removed
}

// sessionByTag is session for a request that names its state by tag only:
// the warm instance holding that state and the state's bytes, or a nil
// session when no warm instance holds it with its bytes (the pool keeps
// them only for the stateless API with base tags on).
func (c *Client) sessionByTag(ctx context.Context, tag string) (*Session, []byte, error) {
	in, doc, err := c.pool.takeWarm(ctx, tag)
	switch {
	case err != nil || in == nil:
		return nil, nil, err
	case doc == nil:
		c.pool.releaseHeld(ctx, in, tag, nil) // still warm for whoever sends the state
		return nil, nil, nil
	}
	ss := &Session{c: c, in: in, Warm: true, held: tag, doc: doc, docTag: tag}
	ss.from(doc)
	return ss, doc, nil
}

// track records that the caller holds doc (whose bytes h has hashed).
func (s *Session) track(doc []byte, h hash.Hash) {
	s.sum, s.hash = engine.Checksum(doc), nil
	if s.sum != "" {
		s.hash = h
	}
}

// Close returns the instance to the pool: kept warm under the tag of the
// document the caller holds when the instance's state is still that
// document's, else reset. The session must not be used after.
func (s *Session) Close(ctx context.Context) {
	if s.in != nil {
		var doc []byte
		if s.docTag == s.held {
			doc = s.doc
		}
		s.c.pool.releaseHeld(ctx, s.in, s.held, doc)
		s.in = nil
	}
}

// Call runs any export with raw input and returns its raw output: the
// escape hatch for exports without a typed method. An export's own error is
// an *ExportError, and leaves the state as it was. With a SealKey,
// import_state is refused here: Import opens only sealed states, and a
// client that seals must never seal a state it did not check.
func (s *Session) Call(ctx context.Context, export string, input []byte) ([]byte, error) {
	if s.in == nil {
		return nil, errors.New("host: session is closed")
	}
	if export == engine.ImportState.Name {
		if s.c.sealKey != nil {
			return nil, errors.New("host: import_state: this client seals its states; import them with Session.Import, which opens only states it sealed")
		}
		if s.c.foreign(input) {
			s.foreign, s.removed = true, s.removed || hasSegments(input)
		}
		s.derived = false
	}
	return s.call(ctx, export, input)
}

// call is Call without its guard: the host's own imports (of states it
// checked) go through it.
func (s *Session) call(ctx context.Context, export string, input []byte) ([]byte, error) {
	held := s.held
	if x, ok := engine.Lookup(export); !ok || x.Mutates {
		s.held = "" // the state may change: no longer the caller's document
	}
	raw, err := s.in.CallContext(ctx, export, input)
	if err == nil && (export == engine.DeleteUnits.Name || export == engine.Purge.Name) {
		s.removed = s.foreign
	}
	if err != nil {
		var trap *TrapError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(err, &trap), errors.Is(err, ErrInstanceTrapped):
			return nil, err // not the export's answer
		}
		if msg := err.Error(); strings.HasPrefix(msg, export+": ") {
			// The module refused: its state is as it was.
			s.held = held
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
// Rating 1 to 5), dislike, skip. ClientID, optional, makes a retry harmless:
// give each action its own id and send the same id when retrying it; a
// repeated id is acknowledged (RecordResult.Repeated) and not recorded again.
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

// Export returns the user's whole state document, as the module wrote it,
// sealed when the client has a SealKey.
func (s *Session) Export(ctx context.Context) ([]byte, error) {
	doc, err := s.exportDoc(ctx)
	if err != nil {
		return nil, err
	}
	s.holds(doc)
	if s.c.sealKey == nil {
		return doc, nil
	}
	return seal.Seal(s.c.sealKey, doc), nil
}

// holds records that the caller now holds doc, a whole state the module
// wrote: the instance stays warm under its tag unless doc is a derived form
// of it (exactWhole), which would import into another state.
func (s *Session) holds(doc []byte) {
	h := s.c.pool.newHash()
	h.Write(doc)
	s.derived = !s.exactWhole(doc)
	s.setHeld(h)
	s.track(doc, h)
}

// setHeld sets held to the tag of the bytes h has hashed, or "" when those
// bytes are derived.
func (s *Session) setHeld(h hash.Hash) {
	s.held = ""
	if !s.derived {
		s.held = s.c.pool.tagOf(h)
	}
}

// ExportBinary returns the whole state in binary form (docs/state-binary.md),
// each piece sealed when the client has a SealKey.
func (s *Session) ExportBinary(ctx context.Context) ([]byte, error) {
	bin, err := s.Call(ctx, engine.ExportState.Name, []byte(`{"format":"binary"}`))
	if err != nil {
		return nil, err
	}
	s.holds(bin)
	if s.c.sealKey == nil {
		return bin, nil
	}
	return sealPieces(s.c.sealKey, bin)
}

// ExportDelta returns what changed since the binary state the session last
// imported or exported: a segment to append to it, or a whole state to
// replace it (compaction, or a session that holds no binary state), or
// nothing when nothing changed; AppendState applies either. Pieces are
// sealed when the client has a SealKey.
func (s *Session) ExportDelta(ctx context.Context) ([]byte, error) {
	if s.sum == "" || s.hash == nil {
		return s.ExportBinary(ctx)
	}
	in, _ := json.Marshal(engine.ExportStateInput{Format: "binary", Base: s.sum})
	piece, err := s.Call(ctx, engine.ExportState.Name, in)
	if err != nil {
		return nil, err
	}
	switch {
	case len(piece) == 0:
		s.setHeld(s.hash)
		return nil, nil
	case piece[5] == 'B':
		s.holds(piece)
	default:
		// The bytes held, with a segment of what changed: their import
		// gives this state when theirs gave the state before.
		s.hash.Write(piece)
		s.setHeld(s.hash)
		s.sum = engine.Checksum(piece)
	}
	if s.c.sealKey == nil {
		return piece, nil
	}
	return sealPieces(s.c.sealKey, piece)
}

// exportDoc returns the bare state document.
func (s *Session) exportDoc(ctx context.Context) ([]byte, error) {
	return s.Call(ctx, engine.ExportState.Name, nil)
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
	if err := s.importDoc(ctx, doc); err != nil {
		return err
	}
	s.from(doc)
	h := s.c.pool.newHash()
	h.Write(doc)
	s.setHeld(h)
	s.track(doc, h)
	return nil
}

// importDoc is Import of a bare (unsealed, checked) document. A trap is not
// the export's answer: it comes back as the *TrapError it is.
func (s *Session) importDoc(ctx context.Context, doc []byte) error {
	_, err := engine.ImportState.Call(importer{ctx, s}, engine.Raw(doc))
	return err
}

// importer is the session as the engine.Caller of its own imports.
type importer struct {
	ctx context.Context
	s   *Session
}

func (c importer) Call(export string, input []byte) ([]byte, error) {
	return c.s.call(c.ctx, export, input)
}

// restoreBase imports the state a request by tag started from again, after
// the module refused the call made on it and its delta, so that the state
// stays warm under its tag as it was before the request. It gives up
// quietly: the state is then dropped, and the next request by its tag gets
// 409 (a cache may forget).
func (s *Session) restoreBase(ctx context.Context) {
	if s.base == nil || s.in == nil {
		return
	}
	if err := s.importDoc(ctx, s.base); err != nil {
		s.held = ""
		return
	}
	s.from(s.base)
	s.held, s.doc, s.docTag = s.baseTag, s.base, s.baseTag
}
