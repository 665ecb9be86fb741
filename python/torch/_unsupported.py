"""Names of PyTorch subsystems this package does not have (torch.fx, torch.package): importable,
so that a program importing them loads, and failing with a clear error when used."""


def unsupported_function(module, name, why):
    """A function that raises NotImplementedError naming module.name and why."""

    def fail(*args, **kwargs):
        raise NotImplementedError("%s.%s is not available in this package: %s" % (module, name, why))

    fail.__name__ = fail.__qualname__ = name
    fail.__module__ = module
    return fail


def unsupported_class(module, name, why):
    """A class whose construction (its subclasses' too) raises NotImplementedError."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("%s.%s is not available in this package: %s" % (module, name, why))

    return type(name, (), {"__init__": __init__, "__module__": module, "__doc__": "Not available: " + why})
