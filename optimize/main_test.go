package optimize_test

import (
	"testing"

	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// TestMain removes the libraries the tests had written for the tools.
func TestMain(m *testing.M) { tooltest.Main(m) }
