"""relic's exceptions. Each message is the one the ``relic`` command prints, naming the user's file.

Files the system cannot read or write raise ``OSError`` and its subclasses as usual
(``FileNotFoundError``, ``FileExistsError``).
"""


class Error(Exception):
    """Base of relic's errors."""


class NotAModel(Error):
    """The file is not a model or texture of any format relic reads, or of a kind it does not read
    (a LithTech LTA text, a PS2 model): the message says which, and what relic reads."""


class Incomplete(Error):
    """The model keeps data in files beside it that were not found (an M2's ``.skin`` or ``.anim``
    files).

    Attributes:
        missing: the file names looked for, in the order the model needs them.
    """

    def __init__(self, message, missing=()):
        super().__init__(message)
        self.missing = list(missing)


class Invalid(Error, ValueError):
    """The file is damaged, or a model saved from Python breaks a rule of the common model.

    Attributes:
        offset: the byte of the file where the failing field starts (``None`` for a model).
        field: the field's path (``Pieces.pieces[3].name``, ``meshes[2].positions``), or ``None``.
    """

    def __init__(self, message, offset=None, field=None):
        super().__init__(message)
        self.offset = offset
        self.field = field


class Unsupported(Error):
    """A version relic refuses, a model the target format cannot hold, or a save that ``strict``
    refused.

    Attributes:
        version: the version refused, when a file's version is the reason (else ``None``).
        field: the field that holds it (``Header.version``), or ``None``.
        notes: for a save ``strict`` refused, the notes that say what would be lost (else ``[]``).
    """

    def __init__(self, message, version=None, field=None, notes=()):
        super().__init__(message)
        self.version = version
        self.field = field
        self.notes = list(notes)


class UsageError(Error, ValueError):
    """A request that does not make sense for these files: an animation file given as a model, an
    output that is one of the inputs, an option of the wrong kind."""
