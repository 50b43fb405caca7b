package bench

import (
	"context"
	"errors"

	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// DefaultProbeTimeout limits nvidia-smi -L in DeviceProbe.Check.
const DefaultProbeTimeout = 5 * time.Second

// DeviceProbe looks for a CUDA device before anything is built, cheaply
// and without opening a device: a harness can ask the CUDA runtime only
// once nvcc has built it, which takes minutes.
type DeviceProbe struct {
	// Root is put before every path the probe looks at; "" is the
	// machine's own root. Tests point it at a folder of their own.
	Root string
	// NvidiaSMI is nvidia-smi's path: "" looks for it on PATH, "-" never
	// asks it.
	NvidiaSMI string
	// Timeout limits nvidia-smi; 0 means DefaultProbeTimeout.
	Timeout time.Duration
}

// deviceSigns are the paths, under the root, of which any one shows the
// NVIDIA driver has a GPU: one folder per GPU in /proc, a GPU's device
// node (nvidiactl alone is not one: a container or a machine without a
// GPU may have it), WSL2's GPU device and Jetson's.
var deviceSigns = []string{"proc/driver/nvidia/gpus/*", "dev/nvidia[0-9]*", "dev/dxg", "dev/nvhost-ctrl-gpu", "dev/nvgpu"}

// Check returns nil where a CUDA device may be there, and a
// *MissingError ("no CUDA device: …") where the NVIDIA driver shows none.
// It only looks at names (never opens a device file): any of
// /proc/driver/nvidia/gpus/*, /dev/nvidia0 and the other GPU nodes, WSL2's
// /dev/dxg or Jetson's /dev/nvhost-ctrl-gpu is a device. Without them it
// asks nvidia-smi -L where there is one (it loads the driver on a machine
// that has not yet): a GPU it lists is a device, a failure or an empty
// list is none, and a run that ends otherwise (out of time) is taken as
// unsure. A probe that is unsure returns nil, and so does one of the
// machine's own root anywhere but Linux, so that a machine with a GPU is
// never refused.
func (p DeviceProbe) Check(ctx context.Context) error {
	if p.Root == "" && runtime.GOOS != "linux" {
		return nil
	}
	root := p.Root
	if root == "" {
		root = "/"
	}
	for _, sign := range deviceSigns {
		if m, _ := filepath.Glob(filepath.Join(root, sign)); len(m) > 0 {
			return nil
		}
	}
	smi := p.NvidiaSMI
	if smi == "" {
		smi, _ = toolrun.LookPath("nvidia-smi")
	}
	if smi == "" || smi == "-" {
		return &MissingError{"no CUDA device: the NVIDIA driver shows no GPU (no /proc/driver/nvidia/gpus/*, no /dev/nvidia0)"}
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: smi, Args: []string{"-L"}, Timeout: timeout})
	if exit, ok := errors.AsType[*toolrun.ExitError](err); ok {
		return &MissingError{"no CUDA device: nvidia-smi -L " + strings.TrimPrefix(exit.Error(), exit.Tool+" ")}
	}
	if err != nil {
		return nil // unsure
	}
	for line := range strings.Lines(string(res.Stdout)) {
		if strings.HasPrefix(line, "GPU ") {
			return nil
		}
	}
	return &MissingError{"no CUDA device: nvidia-smi -L lists none: " + said(string(res.Output))}
}
