"""Type stubs of relic's native module (re-exported by the package ``relic``)."""

import array
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

_Path = Union[str, "os.PathLike[str]"]
_Paths = Union[_Path, Iterable[_Path]]
#: Any buffer of the element type (``array.array``, NumPy array, ``memoryview``), raw
#: ``bytes``/``bytearray``, or a sequence of numbers or of tuples of numbers.
_Buffer = Any
_Vec3 = Tuple[float, float, float]
_Box = Tuple[_Vec3, _Vec3]

__version__: str

class Format:
    """A format relic reads (what :func:`formats` lists)."""

    name: str
    """The name (``abc``, ``m2``, ``glb``): also the extension written."""
    title: str
    """The games and tools that use it."""
    family: str
    """Its family, as an editor's menu names it (``LithTech model``: ABC and LTB)."""
    extensions: List[str]
    holds: List[str]
    """What its files hold: ``model``, ``animation``, ``texture``."""
    reads: List[Tuple[int, int]]
    """Versions read, as ``(first, last)`` ranges."""
    writes: List[Tuple[int, int]]
    """Versions written (empty: not written)."""
    default_version: int
    note: str

class Kind:
    """What a file is, judged by its bytes (what :func:`detect` answers)."""

    format: str
    version: int
    content: str
    """``model``, ``animation``, ``part`` (a piece kept in another file: an M2's ``.skin``) or ``texture``."""
    readable: bool
    """Whether relic reads this version."""

def formats() -> List[Format]:
    """Every format relic reads and writes, in the order files are recognised."""

def detect(path_or_bytes: Union[_Path, bytes]) -> Optional[Kind]:
    """What a file is, by its content; ``None`` for bytes of no format relic knows."""

def info(path: _Path, *, listfile: Optional[_Path] = None) -> Dict[str, Any]:
    """The object ``relic info --json`` prints: ``file``, ``format``, ``version``, then the format's own counts.

    ``listfile``: the community ``id;path`` CSV: each FileDataID of a chunked M2 is shown with its
    path (``relic info --listfile``); a file that cannot be read raises :class:`relic.UsageError`."""

def open(
    path: _Path,
    *,
    anims: Optional[_Paths] = None,
    data: Optional[_Paths] = None,
    replaceable: Optional[Mapping[int, _Path]] = None,
    skins: Optional[Union[Sequence[_Path], Mapping[int, _Path]]] = None,
    textures: Optional[_Paths] = None,
    listfile: Optional[_Path] = None,
) -> Model:
    """Opens a model file with the files beside it that it needs.

    ``anims``: animation files played on it (NAD for a NOD). Where its textures are found, as the
    ``relic`` command's options: ``data`` (game data folders: M2 texture paths), ``replaceable``
    (``{type: file}``: ``--texture``), ``skins`` (LithTech skins: a list for slots 0, 1, … or
    ``{slot: file}``: ``--skin``), ``textures`` (folders of PNG/JPEG versions: ``--textures``).
    ``listfile``: the community ``id;path`` CSV naming the files a chunked M2 refers to by
    FileDataID (its ``.skin``, ``.anim`` files and textures): each is found by the listed file name
    beside the model, then by the listed path under ``data`` (or the folder the model's own listed
    path starts in); without it by ``<model>00.skin``, ``<model>AAAA-VV.anim``, ``<id>.blp``
    (``--listfile``). A listfile that cannot be read raises :class:`relic.UsageError`.

    Raises :class:`relic.NotAModel`, :class:`relic.Incomplete`, :class:`relic.Invalid`,
    :class:`relic.Unsupported`, :class:`relic.UsageError` or ``OSError``.
    """

def convert(
    src: _Path,
    dst: _Path,
    *,
    anims: Optional[_Paths] = None,
    version: Optional[int] = None,
    lod: Union[None, int, str] = None,
    data: Optional[_Paths] = None,
    replaceable: Optional[Mapping[int, _Path]] = None,
    skins: Optional[Union[Sequence[_Path], Mapping[int, _Path]]] = None,
    textures: Optional[_Paths] = None,
    no_textures: bool = False,
    force: bool = False,
    strict: bool = False,
    encoding: str = "auto",
    mips: Optional[int] = None,
    listfile: Optional[_Path] = None,
) -> Saved:
    """``relic convert src dst`` with every option it has (``lod``: ``"all"`` or ``0``;
    ``listfile`` as for :func:`open`;
    ``encoding``: ``auto``, ``dxt1``, ``dxt3``, ``dxt5``, ``palettized``, ``raw``). An existing
    output is ``FileExistsError`` unless ``force``; with ``strict`` nothing is written if the
    output cannot hold everything (:class:`relic.Unsupported`). Releases the GIL: threads
    convert in parallel."""

class Saved:
    """What a save or a conversion wrote."""

    files: List[str]
    """The output first, then the files beside it (``.skin``, ``.bin``, textures)."""
    bytes: int
    notes: List[Note]
    """What the target could not hold, grouped as the ``relic`` command prints them."""
    losses: List[Note]
    """Every note on its own."""
    read_notes: List[Note]
    """Notes from reading the input (:func:`convert` only)."""
    comparison: Optional[str]
    """How the file written compares with the game file the model was first read from."""

class Note:
    """Something a conversion could not carry, or a part of a file that could not be read."""

    element: str
    what: str
    count: int
    """How many notes of the same kind this one stands for."""
    text: str
    """The line the ``relic`` command prints."""

class Transform:
    """Translation, rotation (unit quaternion ``(x, y, z, w)``) and scale: T × R × S."""

    translation: Tuple[float, float, float]
    rotation: Tuple[float, float, float, float]
    scale: Tuple[float, float, float]
    def __init__(
        self,
        translation: Optional[Sequence[float]] = None,
        rotation: Optional[Sequence[float]] = None,
        scale: Optional[Sequence[float]] = None,
    ) -> None: ...
    def matrix(self) -> List[float]:
        """The 4×4 matrix, 16 floats column after column."""

class Bone:
    """One bone: ``parent`` is an index into ``Model.bones`` (lower than the bone's), ``None`` for a root."""

    name: str
    parent: Optional[int]
    rest: Transform
    """The bind pose relative to the parent."""
    bind_matrix: Optional[List[float]]
    """The model-space bind pose (16 floats, column-major); ``None``: derived from the rest poses on save."""
    inverse_bind_matrix: Optional[List[float]]
    inherit_translation: bool
    inherit_rotation: bool
    inherit_scale: bool
    rotation_only: bool
    billboard: str
    """``none``, ``spherical``, ``cylindrical_x``, ``cylindrical_y``, ``cylindrical_z``."""
    def __init__(self, name: str = "", parent: Optional[int] = None, rest: Optional[Transform] = None) -> None: ...

class MorphTarget:
    name: str
    position_deltas: array.array
    """3 floats a vertex."""
    normal_deltas: array.array
    def __init__(self, name: str = "", position_deltas: Optional[_Buffer] = None) -> None: ...

class Mesh:
    """A triangle mesh with one material; arrays are flat ``array.array`` objects (``'f'`` floats, ``'i'`` indices), which NumPy and Blender's ``foreach_set`` read without a copy."""

    name: str
    material: Optional[int]
    positions: array.array
    """3 floats a vertex, model space, right-handed, +Y up."""
    normals: array.array
    """3 floats a vertex, or empty."""
    uv_sets: List[array.array]
    """0 to 2 buffers of 2 floats a vertex (top-left image origin)."""
    indices: array.array
    """3 vertex indices a triangle, counter-clockwise front faces."""
    skin_offsets: array.array
    """Vertex ``v`` has influences ``skin_offsets[v]`` to ``skin_offsets[v + 1]`` (exclusive)."""
    joints: array.array
    """The bone of each influence."""
    weights: array.array
    """The weight of each influence."""
    lod: int
    lod_distance: float
    part_id: Optional[int]
    morph_targets: List[MorphTarget]
    vertex_count: int
    triangle_count: int
    def __init__(
        self,
        name: str = "",
        *,
        positions: Optional[_Buffer] = None,
        indices: Optional[_Buffer] = None,
        normals: Optional[_Buffer] = None,
        uv_sets: Optional[Iterable[_Buffer]] = None,
        material: Optional[int] = None,
    ) -> None: ...
    def set_skin(self, joints: _Buffer, weights: _Buffer, per_vertex: int = 4) -> None:
        """Every vertex's influences from ``per_vertex`` joints and weights a vertex (zero weights dropped)."""

class Image:
    """An image: RGBA pixels (``rgba``) and a PNG file (``png``), each made from the other on demand."""

    name: str
    width: int
    height: int
    rgba: bytes
    """4 bytes (R, G, B, A) a pixel, rows top first."""
    png: bytes
    data: bytes
    """The image file as found (PNG or JPEG), or a PNG made from the pixels."""
    mime: str
    opaque: bool
    def __init__(self, width: int, height: int, rgba: _Buffer, name: str = "") -> None: ...
    @staticmethod
    def from_png(data: bytes, name: str = "") -> Image: ...
    @staticmethod
    def open(path: _Path) -> Image:
        """Level 0 of a texture file relic reads (BLP, DTX, PNG)."""

class Texture:
    """A texture the game loads: its path as the model names it, and its image (found on first access)."""

    path: str
    replaceable: Optional[int]
    uv_set: Optional[int]
    wrap_u: bool
    wrap_v: bool
    slot: Optional[int]
    transform: Optional[Tuple[Tuple[float, float], float, Tuple[float, float]]]
    image: Optional[Image]
    """Assigning one saves it as the game's texture beside the model (BLP, DTX) or in a glTF."""
    image_note: Optional[str]
    """Why there is no image (where relic looked)."""
    image_changed: bool
    def __init__(
        self,
        path: str = "",
        *,
        image: Optional[Image] = None,
        uv_set: Optional[int] = 0,
        replaceable: Optional[int] = None,
        slot: Optional[int] = None,
    ) -> None: ...

class Material:
    name: str
    textures: List[Texture]
    blend: str
    """``opaque``, ``alpha_key``, ``alpha``, ``add``, ``add_alpha``, ``modulate``, ``modulate2x``."""
    double_sided: bool
    unlit: bool
    unfogged: bool
    depth_write: bool
    alpha_cutoff: Optional[float]
    specular: Optional[Tuple[float, float]]
    def __init__(self, name: str = "", textures: Optional[Iterable[Texture]] = None) -> None: ...

class Channel:
    """Keys of one bone property: ``times`` (seconds) and flat ``values`` (3 a key, 4 for rotations; 3 entries a key for cubicspline)."""

    bone: int
    property: str
    """``translation``, ``rotation`` or ``scale``."""
    interpolation: str
    """``step``, ``linear`` or ``cubicspline``."""
    clock: Optional[int]
    """``None``: the clip's time; an index into ``Model.global_sequences``."""
    times: array.array
    values: array.array
    def __init__(
        self,
        bone: int,
        property: str,
        times: _Buffer,
        values: _Buffer,
        interpolation: str = "linear",
        clock: Optional[int] = None,
    ) -> None: ...

class MorphChannel:
    mesh: int
    interpolation: str
    times: array.array
    weights: array.array
    def __init__(self, mesh: int, times: _Buffer, weights: _Buffer, interpolation: str = "linear") -> None: ...

class Event:
    time: float
    name: str
    bone: Optional[int]
    position: Optional[_Vec3]
    parameter: Optional[int]
    def __init__(
        self,
        name: str,
        time: float,
        *,
        bone: Optional[int] = None,
        position: Optional[_Vec3] = None,
        parameter: Optional[int] = None,
    ) -> None: ...

class Clip:
    name: str
    duration: float
    looping: bool
    blend_in: float
    channels: List[Channel]
    morph_channels: List[MorphChannel]
    events: List[Event]
    bounds: Optional[_Box]
    key_bounds: List[Tuple[float, _Vec3, _Vec3]]
    def __init__(
        self, name: str = "", duration: float = 0.0, *, looping: bool = True, channels: Optional[Iterable[Channel]] = None
    ) -> None: ...

class Attachment:
    name: str
    id: Optional[int]
    bone: int
    transform: Transform
    def __init__(self, name: str, bone: int, transform: Optional[Transform] = None, id: Optional[int] = None) -> None: ...

class Emitter:
    name: str
    bone: int
    transform: Transform
    size: float
    kind: str
    """``particle`` or ``ribbon``."""
    texture: Optional[str]
    tracks: List[Dict[str, Any]]
    has_record: bool

class Records:
    """The format's own records, carried unchanged for an exact save back."""

    format: str
    def to_json(self) -> Optional[str]: ...
    @staticmethod
    def from_json(format: str, text: str) -> Records: ...

class Model:
    """A skeletal model in the common frame (right-handed, +Y up; seconds)."""

    name: str
    bones: List[Bone]
    meshes: List[Mesh]
    materials: List[Material]
    clips: List[Clip]
    attachments: List[Attachment]
    emitters: List[Emitter]
    global_sequences: List[float]
    records: Optional[Records]
    format: Optional[str]
    version: Optional[int]
    lods: List[int]
    notes: List[Note]
    files: List[str]
    original: Optional[Dict[str, Any]]
    def __init__(self, name: str = "") -> None: ...
    def copy(self) -> Model: ...
    def validate(self) -> None:
        """Raises :class:`relic.Invalid` naming the first rule the model breaks."""
    def save(
        self, path: _Path, *, format: Optional[str] = None, version: Optional[int] = None, strict: bool = False
    ) -> Saved:
        """Writes the model (and the files beside it) atomically; never over the files it was read from."""
