#!/usr/bin/env python3
"""`sinew run` on a terminal, checked under a pseudo-terminal (python's pty module).

  terminal_run.py progress SINEW SCENE OUT   the progress line is one line redrawn with '\\r'
                                             (never a new line per update), ending in a newline
  terminal_run.py interrupt SINEW SCENE OUT  SIGINT mid-run: exit code 130, "stopped", the
                                             resume hint, a checkpoint of the step it stopped at;
                                             resuming from it ends in the same checkpoint bytes as
                                             an uninterrupted run to the same step

Exits 0 when every check holds, 1 (with the reason) otherwise.
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
import shutil


def fail(message, output=b""):
    sys.stderr.write("FAIL: " + message + "\n")
    if output:
        sys.stderr.write("output:\n" + output.decode(errors="replace")[-4000:] + "\n")
    sys.exit(1)


def run_on_terminal(argv, interrupt_when=None, timeout=120.0):
    """Runs argv with stdin/stdout/stderr on a pseudo-terminal; returns (exit code, output bytes).
    interrupt_when(output) -> True sends SIGINT once."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    out = b""
    sent = False
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            fail("timed out after %g s: %s" % (timeout, " ".join(argv)), out)
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                chunk = b""
            if not chunk:
                break
            out += chunk
        if interrupt_when and not sent and interrupt_when(out):
            os.kill(pid, signal.SIGINT)
            sent = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    if interrupt_when and not sent:
        fail("the run ended before it could be interrupted", out)
    return os.waitstatus_to_exitcode(status), out


def run_quiet(argv):
    r = subprocess.run(argv, capture_output=True)
    if r.returncode != 0:
        fail("exit code %d: %s" % (r.returncode, " ".join(argv)), r.stdout + r.stderr)


def progress(sinew, scene, out):
    shutil.rmtree(out, ignore_errors=True)
    rc, output = run_on_terminal([sinew, "run", scene, "--steps", "40", "--every", "40", "--out", out])
    if rc != 0:
        fail("exit code %d, expected 0" % rc, output)
    redraws = output.count(b"\rstep ")
    if redraws < 2:
        fail("expected the progress line redrawn with '\\r' at least twice (first and last step), found %d" % redraws,
             output)
    if re.search(rb"\nstep \d+/", output):
        fail("a progress update started a new line on a terminal", output)
    if not re.search(rb"\rstep 40/40 [^\r\n]*\r?\n", output):
        fail("the last update (step 40/40) is not followed by a newline", output)
    print("progress line redrawn %d times with '\\r', newline after step 40/40" % redraws)


def interrupt(sinew, scene, out):
    shutil.rmtree(out, ignore_errors=True)
    # Far more steps than it can take before the signal; frames only at the end, checkpoints only
    # when it stops (the runner writes one then, as checkpoints are on).
    big = "100000000"
    opts = ["--every", big, "--checkpoint-every", big]
    # Interrupt once the progress line shows step 20 or later.
    past = lambda o: any(int(k) >= 20 for k in re.findall(rb"\rstep (\d+)/", o))
    rc, output = run_on_terminal([sinew, "run", scene, "--steps", big, "--out", out + "/stopped"] + opts,
                                 interrupt_when=past)
    if rc != 130:
        fail("exit code %d after SIGINT, expected 130" % rc, output)
    m = re.search(rb"interrupted at step (\d+); go on with: sinew run \S+ --resume (\S+)", output)
    if not m or b"stopped: steps 0 -> " not in output:
        fail("expected 'stopped: steps 0 -> K' and 'interrupted at step K; go on with: ... --resume FILE'", output)
    k = int(m.group(1))
    checkpoint = m.group(2).decode()
    if not checkpoint.endswith("step_%06d.sinewckpt" % k) or not os.path.isfile(checkpoint):
        fail("no checkpoint of step %d at %s" % (k, checkpoint), output)
    end = str(k + 5)
    run_quiet([sinew, "run", scene, "--quiet", "--steps", end, "--resume", checkpoint, "--out", out + "/stopped"] + opts)
    run_quiet([sinew, "run", scene, "--quiet", "--steps", end, "--out", out + "/whole"] + opts)
    name = "checkpoints/step_%06d.sinewckpt" % (k + 5)
    with open(os.path.join(out, "stopped", name), "rb") as a, open(os.path.join(out, "whole", name), "rb") as b:
        if a.read() != b.read():
            fail("the run resumed after SIGINT at step %d ends in other bytes than the uninterrupted one (%s)" %
                 (k, name))
    print("SIGINT at step %d: exit 130, checkpoint written; resumed to step %s, same bytes as uninterrupted" % (k, end))


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("progress", "interrupt"):
        sys.stderr.write(__doc__)
        return 2
    {"progress": progress, "interrupt": interrupt}[sys.argv[1]](*sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
