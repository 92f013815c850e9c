"""The one place the add-on changes axes: relic's common model is glTF's frame (right-handed, +Y
up, the model facing +Z), Blender's is right-handed, +Z up, a model facing −Y (its Front view).
A point ``(x, y, z)`` of the model is ``(x, −z, y)`` in Blender: a quarter turn about X, exact
in floating point (a signed permutation), so every value comes back bit for bit.

Each game's own facing is relic's concern (its format crates put every model facing +Z in the
common model); this module only turns the common model into Blender's frame and back.
"""

from mathutils import Matrix, Quaternion

# Model → Blender and back.
TO_BLENDER = Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))
TO_MODEL = TO_BLENDER.transposed()


def point_to_blender(flat):
    """Flat ``x, y, z`` triples (any sequence) → a list of Blender's ``x, −z, y``."""
    out = [0.0] * len(flat)
    out[0::3] = flat[0::3]
    out[1::3] = [-v for v in flat[2::3]]
    out[2::3] = flat[1::3]
    return out


def point_to_model(flat):
    """Blender's flat triples → the model's (the inverse of :func:`point_to_blender`)."""
    out = [0.0] * len(flat)
    out[0::3] = flat[0::3]
    out[1::3] = flat[2::3]
    out[2::3] = [-v for v in flat[1::3]]
    return out


def trs_matrix(translation, rotation, scale):
    """The matrix T × R × S of a relic transform (rotation ``x, y, z, w``)."""
    x, y, z, w = rotation
    m = Quaternion((w, x, y, z)).to_matrix().to_4x4()
    for i in range(3):
        for j in range(3):
            m[i][j] *= scale[j]
    for i in range(3):
        m[i][3] = translation[i]
    return m


def relic_matrix(flat16):
    """A 4×4 matrix from relic's 16 floats, column after column."""
    m = Matrix()
    for c in range(4):
        for r in range(4):
            m[r][c] = flat16[4 * c + r]
    return m


def flat(matrix):
    """relic's 16 floats (column after column) of a 4×4 matrix."""
    return [matrix[r][c] for c in range(4) for r in range(4)]
