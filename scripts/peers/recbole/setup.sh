#!/usr/bin/env bash
# Creates the Python environment of the RecBole peers, outside the repository
# (default ~/.cache/recmem/peers-venv; PEERS_VENV to change it), from PyPI only.
#
# torch from PyPI is the CUDA build: on a machine without a GPU it still runs
# on the CPU, but it needs its nvidia-* wheels installed to import (about
# 5 GB in all). RecBole 1.2.1 is installed without its dependencies, then the
# ones it imports on this path; ray, plotly and thop (hyper-parameter search
# and plots) are left out. shims.py adapts it to current numpy, pandas and
# SciPy.
set -euo pipefail
VENV="${PEERS_VENV:-$HOME/.cache/recmem/peers-venv}"
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q torch==2.15.0
"$VENV/bin/pip" install -q --no-deps recbole==1.2.1
"$VENV/bin/pip" install -q numpy scipy pandas tqdm colorlog==4.7.2 colorama==0.4.4 scikit-learn pyyaml tabulate texttable psutil tensorboard
"$VENV/bin/python" -c 'import torch, recbole; print("torch", torch.__version__, "recbole", recbole.__version__)'
