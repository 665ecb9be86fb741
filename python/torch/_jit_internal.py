"""The parts of PyTorch 1.13's torch._jit_internal that eager code uses: boolean_dispatch (one
function that calls one of two by a boolean argument, as F.max_pool2d's return_indices does)
and the BroadcastingList annotations (a type or a list of them)."""

boolean_dispatched = {}


def boolean_dispatch(arg_name, arg_index, default, if_true, if_false, module_name, func_name):
    """A function calling if_true or if_false by the argument arg_name (or positional arg_index;
    default when absent); it takes the docstring of whichever has one."""

    def fn(*args, **kwargs):
        if arg_name in kwargs:
            flag = kwargs[arg_name]
        elif arg_index < len(args):
            flag = args[arg_index]
        else:
            flag = default
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)

    docs = [f.__doc__ for f in (if_true, if_false) if f.__doc__ is not None]
    if len(docs) > 1:
        raise RuntimeError("only one function can have a docstring")
    fn.__doc__ = docs[0] if docs else None
    if_true.__doc__ = if_false.__doc__ = fn.__doc__
    if module_name is not None:
        fn.__module__ = module_name
    if func_name is not None:
        fn.__name__ = func_name
    boolean_dispatched[fn] = {
        "if_true": if_true,
        "if_false": if_false,
        "index": arg_index,
        "default": default,
        "arg_name": arg_name,
    }
    return fn


class BroadcastingListCls:
    """BroadcastingList2[int]: an annotation for 'an int or a list of two'; subscripting gives
    nothing, as in eager PyTorch."""

    def __getitem__(self, types):
        return None


BroadcastingList1 = BroadcastingList2 = BroadcastingList3 = BroadcastingListCls()
