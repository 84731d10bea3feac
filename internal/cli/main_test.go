package cli

import (
	"os"
	"testing"

	"github.com/hookd/hookd/internal/testcache"
)

// TestMain keeps the sessions these tests start from writing the user's
// plugin load cache.
func TestMain(m *testing.M) { os.Exit(testcache.Main(m)) }
