package bench_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
)

// TestDeviceProbe points the probe at folders laid out as a machine's
// /proc and /dev (plain files and folders, never device files) and at
// fake nvidia-smi: it finds no device only where the driver shows none,
// and a probe that is unsure lets the build go on.
func TestDeviceProbe(t *testing.T) {
	fakeSMI := func(t *testing.T, script string) string {
		path := filepath.Join(t.TempDir(), "nvidia-smi")
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
		return path
	}
	for _, tt := range []struct {
		name  string
		files []string // under the root; a name ending in / is a folder
		smi   string   // nvidia-smi's script; "" means none
		want  string   // the *MissingError, or "" for none
	}{
		{"nothing", nil, "", "bench: no CUDA device: the NVIDIA driver shows no GPU (no /proc/driver/nvidia/gpus/*, no /dev/nvidia0)"},
		{"control device alone", []string{"dev/nvidiactl", "proc/driver/nvidia/gpus/"}, "",
			"bench: no CUDA device: the NVIDIA driver shows no GPU (no /proc/driver/nvidia/gpus/*, no /dev/nvidia0)"},
		{"driver lists a GPU", []string{"proc/driver/nvidia/gpus/0000:01:00.0/"}, "", ""},
		{"device node", []string{"dev/nvidia3"}, "", ""},
		{"WSL", []string{"dev/dxg"}, "", ""},
		{"Jetson", []string{"dev/nvhost-ctrl-gpu"}, "", ""},
		{"nvidia-smi lists one", nil, "echo 'GPU 0: NVIDIA H200 (UUID: GPU-1234)'", ""},
		{"nvidia-smi fails", nil, "echo 'NVIDIA-SMI has failed because it couldn'\\''t communicate with the NVIDIA driver.'; exit 9",
			"bench: no CUDA device: nvidia-smi -L failed (exit status 9): NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."},
		{"nvidia-smi lists none", nil, "echo 'No devices found.'", "bench: no CUDA device: nvidia-smi -L lists none: No devices found."},
		{"nvidia-smi hangs", nil, "sleep 30", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for _, f := range tt.files {
				path := filepath.Join(root, f)
				if f[len(f)-1] == '/' {
					require.NoError(t, os.MkdirAll(path, 0o755))
					continue
				}
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, nil, 0o644))
			}
			// Only the probe that hangs needs a short limit: a loaded
			// machine had run the others past 300 ms, and a probe past
			// its limit is unsure (nil), which the failing ones are not.
			limit := 30 * time.Second
			if strings.HasPrefix(tt.smi, "sleep") {
				limit = 300 * time.Millisecond
			}
			p := bench.DeviceProbe{Root: root, NvidiaSMI: "-", Timeout: limit}
			if tt.smi != "" {
				p.NvidiaSMI = fakeSMI(t, tt.smi)
			}
			start := time.Now()
			err := p.Check(context.Background())
			assert.Less(t, time.Since(start), limit+5*time.Second)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			var missing *bench.MissingError
			require.True(t, errors.As(err, &missing), "%v", err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}
