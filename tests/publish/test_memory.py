"""analyzer.publish.memory: freed memory handed back, every thread on the main heap; no value changes."""
import threading

import numpy as np

from analyzer.publish import memory


def test_one_arena_then_release_keep_what_a_thread_allocated():
    assert memory.one_arena() is (memory._MALLOPT is not None)       # set wherever glibc's mallopt is
    held = []
    thread = threading.Thread(target=lambda: held.append(np.arange(1 << 20, dtype=np.int64)))
    thread.start()
    thread.join()
    memory.release()
    assert int(held[0].sum()) == (1 << 20) * ((1 << 20) - 1) // 2
