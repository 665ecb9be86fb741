"""torch.autograd.NestedIOFunction: nested inputs, outputs and saved tensors reach
forward_extended/backward_extended as given; gradients checked numerically (gradcheck) and
against the product rule."""

import torch


class PairProduct(torch.autograd.NestedIOFunction):
    def forward_extended(self, pair, c):
        a, b = pair
        self.save_for_backward(pair, c)
        return a * b, [a + c]

    def backward_extended(self, grad_product, grad_sums):
        (a, b), c = self.saved_tensors
        return (grad_product * b + grad_sums[0], grad_product * a), grad_sums[0]


def _inputs():
    g = torch.Generator().manual_seed(0)
    return [torch.randn(4, generator=g, dtype=torch.float64, requires_grad=True) for _ in range(3)]


def test_structure_and_gradients():
    x, y, z = _inputs()
    product, (total,) = PairProduct()((x, y), z)
    assert torch.equal(product, x * y) and torch.equal(total, x + z)
    (product.sum() + (2 * total).sum()).backward()
    assert (
        torch.allclose(x.grad, y + 2)
        and torch.allclose(y.grad, x)
        and torch.allclose(z.grad, torch.full((4,), 2.0, dtype=torch.float64))
    )


def test_gradcheck():
    def f(a, b, c):
        product, (total,) = PairProduct()((a, b), c)
        return product, total

    assert torch.autograd.gradcheck(f, _inputs())


def test_unimplemented_methods_raise():
    class Empty(torch.autograd.NestedIOFunction):
        pass

    try:
        Empty()(torch.ones(2))
    except NotImplementedError:
        return
    raise AssertionError("forward_extended is required")
