"""Cases of torch.TypedStorage, torch.UntypedStorage, torch.Storage and torch.StorageBase, run
the same way by this package and by real PyTorch 1.13 (Debian's python3-torch): each case
returns values, sizes, dtypes, class checks and exception names. test_storage_types.py compares
the two runs.

Run directly (`python3 storage_types_cases.py OUT.npz`) it writes every case's results to
OUT.npz, with the `torch` that interpreter imports."""

import io

import numpy as np

import case_runner

from functional_cases import error_name

CASES, case = case_runner.registry()


@case
def typed_storages(torch):
    s = torch.arange(6.0).storage()
    made = torch.TypedStorage([1, 2, 3], dtype=torch.int16)
    default = torch.TypedStorage(4)
    return [
        np.array(
            [isinstance(s, torch.TypedStorage), isinstance(s, torch.FloatStorage), isinstance(s, torch.IntStorage)]
        ),
        np.array([isinstance(made, torch.ShortStorage), isinstance(torch.DoubleStorage(2), torch.TypedStorage)]),
        str(made.dtype),
        np.array(made.tolist()),
        str(default.dtype),
        np.array([len(default), default.nbytes(), default.element_size(), s.nbytes(), made.nbytes()]),
        s.pickle_storage_type(),
        made.pickle_storage_type(),
        str(s.device),
        repr(torch.TypedStorage([1.5, 2.0], dtype=torch.float64)),
    ]


@case
def untyped_storages(torch):
    u = torch.UntypedStorage([1, 2, 255, 0])
    empty = torch.UntypedStorage(7)
    return [
        np.array(u.tolist()),
        np.array([len(u), u.nbytes(), u.element_size(), len(empty), empty.nbytes()]),
        np.array([isinstance(u, torch.TypedStorage), isinstance(u, torch.UntypedStorage), torch.is_storage(u)]),
        str(u.device),
        repr(u),
        np.array(u[2]),
    ]


@case
def untyped_views_share_memory(torch):
    t = torch.tensor([1.0, -2.0, 3.5])
    u = t.storage().untyped()
    u[0] = 7  # the float 1.0's lowest byte
    u[11] = 0x41  # the last float's sign and exponent byte
    as_ints = torch.TypedStorage(wrap_storage=u, dtype=torch.int32)
    as_legacy = torch.IntStorage(wrap_storage=u)
    as_ints[1] = 0
    return [
        np.array(u.tolist()),
        t.numpy(),
        np.array(as_ints.tolist()),
        np.array(as_legacy.tolist()),
        str(as_ints.dtype),
        np.array([len(as_ints), len(torch.TypedStorage(wrap_storage=torch.UntypedStorage(16), dtype=torch.float64))]),
    ]


@case
def default_storage_class(torch):
    names = [torch.Storage.__name__]
    torch.set_default_dtype(torch.float64)
    try:
        names += [torch.Storage.__name__, str(torch.TypedStorage(1).dtype)]
    finally:
        torch.set_default_dtype(torch.float32)
    names.append(torch.Storage.__name__)
    return names + [np.array([issubclass(torch.UntypedStorage, torch.StorageBase), torch.is_storage(torch.Storage(1))])]


@case
def saving_and_loading(torch):
    u = torch.UntypedStorage([3, 1, 4, 1, 5])
    f = io.BytesIO()
    torch.save([u, torch.tensor([2.5, 3.5]).storage()], f)
    f.seek(0)
    loaded_u, loaded_t = torch.load(f)
    return [
        str(loaded_u.dtype),
        np.array(loaded_u.tolist()),
        np.array([isinstance(loaded_u, torch.TypedStorage), isinstance(loaded_t, torch.FloatStorage)]),
        np.array(loaded_t.tolist()),
    ]


@case
def errors(torch):
    u = torch.UntypedStorage(6)
    return [
        error_name(lambda: torch.TypedStorage(wrap_storage=u, dtype=torch.int32)),
        error_name(lambda: torch.UntypedStorage(-1)),
        error_name(lambda: torch.UntypedStorage(2)[5]),
    ]


if __name__ == "__main__":
    case_runner.main(CASES)
