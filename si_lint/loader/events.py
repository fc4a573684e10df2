"""Lighter event objects for PyYAML's C parser while the loader reads.

PyYAML's binding (``yaml._yaml``) makes every event by calling the class its module
holds under the event's name, with the event's fields as positional arguments. Those
classes (``yaml.events``) set their fields in a Python ``__init__``: at 400,000 events
(the 4,000-file bench corpus) that call is a third of the time spent getting the events.
:func:`swapped` puts ``msgspec.Struct`` classes with the same fields in their place for
one read (constructed in C: the events take about 28% less time), and puts the originals
back afterwards, so any other user of PyYAML in the process sees its own classes.

The swap is made only when it is known to give the same events: :func:`_probe` reads one
document with each set of classes and compares every field of every event. A binding
that calls its classes another way (a PyYAML release to come) gets its own classes."""

from __future__ import annotations

from contextlib import contextmanager

#: the fields of the events swapped, in the order the binding passes them (the rarer
#: events -- stream and document start and end -- keep their classes)
FIELDS = {
    "ScalarEvent": ("anchor", "tag", "implicit", "value", "start_mark", "end_mark", "style"),
    "MappingStartEvent": ("anchor", "tag", "implicit", "start_mark", "end_mark", "flow_style"),
    "SequenceStartEvent": ("anchor", "tag", "implicit", "start_mark", "end_mark", "flow_style"),
    "MappingEndEvent": ("start_mark", "end_mark"),
    "SequenceEndEvent": ("start_mark", "end_mark"),
    "AliasEvent": ("anchor", "start_mark", "end_mark"),
}

#: what the probe reads: every event swapped, with anchors, tags, styles and flow
_PROBE = "a: &x [1, 'b', {c: d}]\n? e\n: *x\nf: !!str |\n  g\n"

#: (binding module, {name: its class}, {name: lighter class}) once known; () for none
_SWAP: list = []


def lighter_classes(module) -> dict[str, type] | None:
    """``{name: class}``: a ``msgspec.Struct`` with the fields of each event of
    :data:`FIELDS` (its fields' defaults None, as PyYAML's are)."""
    try:
        import msgspec
    except ImportError:  # pragma: no cover - msgspec is a dependency
        return None
    out = {}
    for name, fields in FIELDS.items():
        if not isinstance(getattr(module, name, None), type):
            return None
        out[name] = msgspec.defstruct(name, [(f, object, None) for f in fields], gc=False)
    return out


_MARKS = ("start_mark", "end_mark")


def _events(module, text: str) -> list[tuple]:
    """Each event of ``text`` as (its class's name, its fields; a mark as (line, column))."""
    parser = module.CParser(text)
    out: list[tuple] = []
    while True:
        ev = parser.get_event()
        if ev is None:
            return out
        fields = FIELDS.get(type(ev).__name__, ())
        out.append(
            (type(ev).__name__,)
            + tuple(
                (m.line, m.column) if f in _MARKS and m is not None else m
                for f in fields
                for m in (getattr(ev, f, None),)
            )
        )
        if type(ev).__name__ == "StreamEndEvent":
            return out


def _probe(module, originals: dict, lighter: dict) -> bool:
    """Reading :data:`_PROBE` with ``lighter`` gives the events ``originals`` give."""
    try:
        want = _events(module, _PROBE)
        _put(module, lighter)
        try:
            got = _events(module, _PROBE)
        finally:
            _put(module, originals)
    except Exception:
        return False
    return got == want


def _put(module, classes: dict) -> None:
    for name, cls in classes.items():
        setattr(module, name, cls)


def prepare(module) -> dict[str, type]:
    """Make ready the swap for ``module`` (PyYAML's ``yaml._yaml``); the lighter classes
    by name (for the builder to know), or none when the swap would not give the same
    events."""
    if not _SWAP:
        originals = {name: getattr(module, name, None) for name in FIELDS}
        try:
            lighter = lighter_classes(module)
        except Exception:  # a msgspec that makes no such class: the binding's own
            lighter = None
        if lighter is not None and _probe(module, originals, lighter):
            _SWAP.append((module, originals, lighter))
        else:
            _SWAP.append(())
    return dict(_SWAP[0][2]) if _SWAP[0] else {}


@contextmanager
def swapped():
    """The lighter classes in the binding's module while the block reads (nothing when
    :func:`prepare` found the swap unsafe). The originals are put back whatever happens;
    a read in another thread meanwhile gets either set, which the builder reads alike."""
    swap = _SWAP[0] if _SWAP else ()
    if not swap:
        yield
        return
    module, originals, lighter = swap
    _put(module, lighter)
    try:
        yield
    finally:
        _put(module, originals)
