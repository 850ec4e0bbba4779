"""What a program shows its user while it runs, in order: its stdout, its log records and its
warnings, as one list of events. Shared by the fix oracle (tools/fix_oracle.py), which compares a
fixture's cases before and after a fix, and the evaluation worker (eval/worker.py), which compares
a model's forward before and after `graphmend fix`: a fix may change how a side effect is made
(in the graph instead of in Python), never what the user sees.
"""

from __future__ import annotations

import contextlib
import logging
import warnings


class Effects(logging.Handler):
    """Collects events while `capture` is active.

    ``keep_record(record)`` and ``keep_warning(filename)`` choose what belongs to the program under
    test; ``loggers`` are the loggers the handler listens on (the root by default: a library logger
    that does not propagate, such as transformers', is named here); ``describe_warning(filename)``
    is how a warning's file is written in its event (nothing by default).
    """

    def __init__(self, keep_record, keep_warning, loggers=("",), describe_warning=None):
        super().__init__(logging.DEBUG)
        self.keep_record, self.keep_warning = keep_record, keep_warning
        self.loggers, self.describe_warning = loggers, describe_warning
        self.events = []

    def emit(self, record):
        if self.keep_record(record):
            self.events.append(self.record_event(record))

    def record_event(self, record):
        return "log %s: %s (in %s)" % (record.levelname, record.getMessage(), record.funcName)

    def write(self, text):  # stdout: consecutive writes form one event
        if not text:
            return
        if self.events and self.events[-1].startswith("stdout: "):
            self.events[-1] += text
        else:
            self.events.append("stdout: " + text)

    def flush(self):
        pass

    def show_warning(self, message, category, filename, lineno, file=None, line=None):
        if self.keep_warning(filename):
            where = " (%s)" % self.describe_warning(filename) if self.describe_warning else ""
            self.events.append("warning %s: %s%s" % (category.__name__, message, where))

    @contextlib.contextmanager
    def capture(self, out):
        """Runs the block with stdout, warnings and the loggers captured; appends the events to `out`."""
        self.events = []
        # once-only logger methods (transformers' warning_once is an lru_cache on Logger) start afresh
        # for every run, so each run shows what it would show first in a process
        for attr in dir(logging.Logger):
            method = getattr(logging.Logger, attr, None)
            if hasattr(method, "cache_clear"):
                method.cache_clear()
        listening = [logging.getLogger(name) for name in self.loggers]
        for lg in listening:
            lg.addHandler(self)
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(self):
                warnings.simplefilter("always")
                warnings.showwarning = self.show_warning
                yield
        finally:
            for lg in listening:
                lg.removeHandler(self)
            out.extend(self.events)
