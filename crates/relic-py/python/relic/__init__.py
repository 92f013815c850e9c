"""relic: read, write and convert the skeletal models of classic games, exactly.

LithTech ABC and LTB (Shogo, Blood 2, No One Lives Forever 1 and 2, Aliens vs Predator 2, Tron
2.0, CrossFire), Nod NOD/NAD (Vampire: The Masquerade – Redemption), World of Warcraft M2
(Classic to Wrath, with ``.skin`` and ``.anim`` files) and glTF 2.0, with their textures (BLP,
DTX)::

    import relic

    model = relic.open("GnomePounder.m2")           # recognised by content
    positions = model.meshes[0].positions            # an array.array of 32-bit floats
    model.meshes[0].positions[1] += 0.5              # changed in place
    saved = model.save("edited/GnomePounder.m2")     # the edit lands; nothing else changes
    for note in saved.notes:                         # what the target could not hold
        print(note)

An unedited model saved back into its own format gives the bytes it was read from. Errors are
:class:`relic.Error` and its subclasses (``NotAModel``, ``Incomplete``, ``Invalid``,
``Unsupported``, ``UsageError``), with the ``relic`` command's messages; files the system cannot
read or write raise ``OSError`` as usual.
"""

from ._errors import Error, Incomplete, Invalid, NotAModel, Unsupported, UsageError
from ._relic import (
    Attachment,
    Bone,
    Channel,
    Clip,
    Emitter,
    Event,
    Format,
    Image,
    Kind,
    Material,
    Mesh,
    Model,
    MorphChannel,
    MorphTarget,
    Note,
    Records,
    Saved,
    Texture,
    Transform,
    __version__,
    convert,
    detect,
    formats,
    info,
    open,
)

__all__ = [
    "Attachment",
    "Bone",
    "Channel",
    "Clip",
    "Emitter",
    "Error",
    "Event",
    "Format",
    "Image",
    "Incomplete",
    "Invalid",
    "Kind",
    "Material",
    "Mesh",
    "Model",
    "MorphChannel",
    "MorphTarget",
    "NotAModel",
    "Note",
    "Records",
    "Saved",
    "Texture",
    "Transform",
    "Unsupported",
    "UsageError",
    "__version__",
    "convert",
    "detect",
    "formats",
    "info",
    "open",
]
