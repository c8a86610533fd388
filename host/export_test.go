package host

import "context"

// OpenExtismABI is Open with the module's direct input and output turned
// off, so every call goes through the standard Extism ABI of kernel.go.
func OpenExtismABI(ctx context.Context, opts Options) (*Runtime, error) {
	r, err := Open(ctx, opts)
	if r != nil {
		r.extismABI = true
	}
	return r, err
}
