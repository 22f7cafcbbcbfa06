#!/usr/bin/env bash
# What a session with an NVIDIA GPU runs, in one go (issue 35): the GPU tests, then the GPU
# rows of `rmviz bench --device gpu` without the large matrices (measured before: docs/performance.md).
# Needs CuPy, numba, SciPy and pytest where it runs; open-spiel and platformdirs may come as
# wheels in .whl/ (the device machine has no registry). Logs go to $OUT (or ./out).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-out}; mkdir -p "$OUT"
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} NUMBA_CACHE_DIR=/tmp/numba-cache PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
python3 -c "import cupy, numba, numpy, sys; print('python', sys.version.split()[0], 'cupy', cupy.__version__,
  'CUDA runtime', cupy.cuda.runtime.runtimeGetVersion(), 'numba', numba.__version__, 'numpy', numpy.__version__)" \
  | tee -a "$OUT/device.txt"
[ -n "${SKIP_TESTS:-}" ] || timeout "${TEST_SECONDS:-240}" python3 -m pytest -o addopts="" -p no:cacheprovider -q -m gpu -n 8 \
  tests/solvers tests/runner 2>&1 | tee "$OUT/gpu-tests.log"
timeout "${BENCH_SECONDS:-300}" python3 -c "from rmviz.bench_gpu import run_gpu_bench; run_gpu_bench(print, 1.0, sizes=())" \
  2>&1 | tee "$OUT/gpu-bench.log"
