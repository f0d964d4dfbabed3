"""Renders a manifest of aurender jobs with Ray Data, and writes the results as JSON lines.

    python3 ray-recipe.py JOBS.jsonl RESULTS_FOLDER [CPUS]

Ray reads the manifest into a dataset, hands each batch of rows to `aurender batch` (one process
per batch, so its start-up is paid once a batch, not once a row), and writes the result rows to
RESULTS_FOLDER as JSON lines. Paths in the manifest are relative to the folder this is started
in, which every worker must see (a shared file system on a cluster); `aurender` must be on the
workers' PATH. With CPUS, starts a local Ray instance of that many CPUs; without, joins the
cluster `ray start` made (or starts a local one the size of the machine).
"""
import json
import os
import subprocess
import sys
import tempfile

import pyarrow
import ray


def present(value):
    """The value without the nulls Ray gives a row for the keys only other rows have."""
    if isinstance(value, dict):
        return {key: present(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [present(item) for item in value]
    return value


def render(batch, folder):
    """Renders one batch of manifest rows with `aurender batch` and returns its result rows."""
    with tempfile.TemporaryDirectory() as scratch:
        manifest, results = os.path.join(scratch, "jobs.jsonl"), os.path.join(scratch, "results.jsonl")
        with open(manifest, "w") as file:
            for row in batch.to_pylist():
                file.write(json.dumps(present(row)) + "\n")
        # A job that fails is a failed row (its exit status and error in it), not a failed task.
        done = subprocess.run(["aurender", "batch", manifest, "--results", results, "-j", "1"],
                              cwd=folder, capture_output=True, text=True)
        if not os.path.exists(results):
            raise RuntimeError(f"aurender batch exited {done.returncode}: {done.stderr.strip()}")
        with open(results) as file:
            # `line` counts lines of this batch's manifest; rows join back to the table by output.
            rows = [{key: item for key, item in json.loads(line).items() if key != "line"} for line in file]
    return pyarrow.Table.from_pylist(rows)


def main():
    manifest, results = sys.argv[1], sys.argv[2]
    ray.init(num_cpus=int(sys.argv[3]) if len(sys.argv) > 3 else None, include_dashboard=False)
    folder = os.getcwd()
    jobs = ray.data.read_json(manifest)
    rendered = jobs.map_batches(lambda batch: render(batch, folder), batch_size=25, batch_format="pyarrow")
    rendered.write_json(results)


if __name__ == "__main__":
    main()
