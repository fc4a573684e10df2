"""Value objects: a subclass of a ``collections.namedtuple`` (flake8's value objects) --
immutable, hashable, compared by value, never equal to another type's tuple. ``_replace``
is ``dataclasses.replace``; ``_fields`` and ``_field_defaults`` name the fields (the
findings, the corpus root, the configuration)."""

from __future__ import annotations

from operator import itemgetter


def value_object(*ignored: str):
    """Class decorator for a named tuple's subclass: ``==``, ``!=`` and ``hash`` over its
    fields but ``ignored`` (what ``field(compare=False)`` was), only ever equal to its own
    class; ordering stays the tuple's (field by field, as ``order=True``)."""

    def wrap(cls):
        key = itemgetter(*(i for i, f in enumerate(cls._fields) if f not in ignored))

        def __eq__(self, other):
            return other.__class__ is self.__class__ and key(self) == key(other)

        def __ne__(self, other):
            return not __eq__(self, other)

        def __hash__(self):
            return hash(key(self))

        cls.__eq__, cls.__ne__, cls.__hash__ = __eq__, __ne__, __hash__
        return cls

    return wrap
