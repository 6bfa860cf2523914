"""fk-python: a Python program whose call tree flamekit's tests know.

    python3 fk-python.py SECONDS [loop]
    python3 fk-python.py ITERATIONS work

main() runs for SECONDS of its own CPU time, splitting it 1:3 between
quarter(), which recurses 40 deep (recurse(40) .. recurse(0): 41 frames)
before it spins, and three_quarters(), which sorts with a key= callback
(slow_key, called from C by sorted()); its thread is named fk-python. A
second thread, named fk-worker,
spins in worker() and worker_spin() meanwhile. Each prints its CPU time
on stderr at the end: "main CPU_S" and "worker CPU_S"; main() also
prints the CPU time it measured in each half, "split QUARTER_S
THREE_QUARTERS_S", the answer a profile of it should give. SIGTERM ends
main() early, with the same lines.

With "work", main() makes ITERATIONS rounds of quarter() and
three_quarters() instead (a fixed amount of work, for bench/interp.sh),
and prints "wall SECONDS" for them.

With "loop", the worker thread links its own frame's previous-frame
pointer back to itself (a frame chain that loops, as a corrupt or racing
chain would look) and spins there until the process ends with os._exit.
"""
import ctypes
import os
import signal
import sys
import threading
import time

UNIT = 20000  # iterations of spin() in one unit of work


def spin(units):
    total = 0
    for i in range(units * UNIT):
        total += i * i
    return total


def recurse(depth):
    if depth == 0:
        return spin(1)
    return recurse(depth - 1)


def quarter():
    return recurse(40)


def slow_key(item):
    spin(1)
    return -item


def three_quarters():
    return sorted(range(3), key=slow_key)


class Stopped(Exception):
    """Raised in the main thread by SIGTERM."""


def stop_main(signum, frame):
    raise Stopped()


def main(seconds):
    name_this_thread("fk-python")
    start = time.thread_time()
    in_quarter = in_three_quarters = 0.0
    try:
        while time.thread_time() - start < seconds:
            began = time.thread_time()
            quarter()
            middle = time.thread_time()
            three_quarters()
            in_quarter += middle - began
            in_three_quarters += time.thread_time() - middle
    except Stopped:
        pass
    print("main %.3f" % (time.thread_time() - start), file=sys.stderr)
    print("split %.4f %.4f" % (in_quarter, in_three_quarters), file=sys.stderr)


def worker_spin(stop):
    while not stop.is_set():
        spin(1)


def name_this_thread(name):
    libc = ctypes.CDLL(None)
    libc.prctl(15, name.encode(), 0, 0, 0)  # PR_SET_NAME


def worker(stop):
    name_this_thread("fk-worker")
    start = time.thread_time()
    worker_spin(stop)
    print("worker %.3f" % (time.thread_time() - start), file=sys.stderr)


def loop_frame_chain():
    """Points this frame's previous-frame link at itself (CPython 3.11's
    _PyInterpreterFrame: previous at 48; the frame object's f_frame at 24)."""
    frame_object = sys._getframe()
    interpreter_frame = ctypes.c_void_p.from_address(id(frame_object) + 24).value
    offset = {(3, 11): 48, (3, 12): 8, (3, 13): 8}[sys.version_info[:2]]
    ctypes.c_void_p.from_address(interpreter_frame + offset).value = interpreter_frame
    while True:
        spin(1)


def looping_worker():
    name_this_thread("fk-loop")
    loop_frame_chain()


def work(iterations):
    name_this_thread("fk-python")
    start = time.monotonic()
    for _ in range(iterations):
        quarter()
        three_quarters()
    print("wall %.3f" % (time.monotonic() - start), file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "work":
        work(int(sys.argv[1]))
        sys.exit(0)
    seconds = float(sys.argv[1])
    signal.signal(signal.SIGTERM, stop_main)
    if len(sys.argv) > 2 and sys.argv[2] == "loop":
        threading.Thread(target=looping_worker, daemon=True).start()
        main(seconds)
        sys.stderr.flush()
        os._exit(0)
    stop = threading.Event()
    thread = threading.Thread(target=worker, args=(stop,))
    thread.start()
    main(seconds)
    stop.set()
    thread.join()
