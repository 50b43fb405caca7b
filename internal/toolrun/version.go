package toolrun

import (
	"context"
	"errors"
	"sync"
	"time"
)

// versions caches what Version found, by program and flag.
var versions sync.Map

// VersionTimeout is the time limit of Version where its caller gives none.
const VersionTimeout = time.Minute

// Version runs the program at path with flag (--version, -V), under the
// time limit given (0 means VersionTimeout), and returns the first line it
// prints, escaped, even where the program then exits with a status other
// than 0, as some do. It runs each program once per process: later calls
// return the first answer.
func Version(ctx context.Context, path, flag string, limit time.Duration) (string, error) {
	if limit <= 0 {
		limit = VersionTimeout
	}
	key := path + "\x00" + flag
	if v, ok := versions.Load(key); ok {
		return v.(string), nil
	}
	res, err := Run(ctx, Cmd{Path: path, Args: []string{flag}, Timeout: limit})
	var v string
	if res != nil {
		v = FirstLine(string(res.Output))
	}
	// Some tools (Icarus's -V) exit 1 having printed their version.
	if _, exit := errors.AsType[*ExitError](err); err != nil && !(exit && v != "") {
		return "", err
	}
	versions.Store(key, v)
	return v, nil
}
