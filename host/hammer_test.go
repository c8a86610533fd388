package host_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/workload"
)

// TestHammer runs many goroutines on one Client (shared compiled code, a
// pool of instances), each carrying its own users' states through sessions.
// Every final state must equal the native engine's for the same inputs: no
// state leaks between users through a pooled instance. Run it with -race.
func TestHammer(t *testing.T) {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{Instances: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	const workers, users, steps = 8, 3, 6
	var wg sync.WaitGroup
	errs := make(chan error, workers*users)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range users {
				if err := hammerUser(ctx, c, w*users+u, steps); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// hammerUser records steps signals for one user, one session per signal
// (state out, state back in), and compares with the native engine.
func hammerUser(ctx context.Context, c *host.Client, user, steps int) error {
	native := engine.New()
	var state []byte
	for i := range steps {
		in := workload.RecordSignal(user*100 + i)
		if _, err := native.Call("record", in); err != nil {
			return err
		}
		s, err := c.Session(ctx, state)
		if err != nil {
			return err
		}
		var out []byte
		err = func() error {
			defer s.Close(ctx)
			if _, err := s.Record(ctx, nil, ""); err == nil {
				return fmt.Errorf("user %d: an empty record succeeded", user)
			}
			if _, err := s.Call(ctx, "record", in); err != nil {
				return err
			}
			out, err = s.Export(ctx)
			return err
		}()
		if err != nil {
			return err
		}
		state = out
	}
	want, _ := native.Call("export_state", nil)
	if !bytes.Equal(state, want) {
		return fmt.Errorf("user %d: pooled state differs from the native one", user)
	}
	return nil
}
