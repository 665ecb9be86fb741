"""torch.lobpcg: a few extreme eigenpairs of a symmetric (generalized) eigenproblem A x = λ B x by
LOBPCG, with 1.13's arguments, tracker state and gradient.

Note [LOBPCG]: each step is a Rayleigh-Ritz on the search basis S = [X, P, W] (the current
eigenvectors, the previous step's direction, the preconditioned residuals), after Knyazev
(SIAM J. Sci. Comput. 23(2), 2001). method="basic" makes the small problem standard with a
Cholesky of SᵀBS (Duersch et al., SIAM J. Sci. Comput. 40(5), 2018, with the diagonal scaled
first); method="ortho" keeps S B-orthonormal instead, orthogonalizing W against [X, P] by
repeated SVQB (Stathopoulos and Wu, SIAM J. Sci. Comput. 23(6), 2002), which is what makes it
robust. As in 1.13, "ortho" uses the raw residuals as W (iK only preconditions "basic"), and
the k leading pairs count as converged, in order, once ‖r‖ / (‖x‖ (‖A‖ + λ‖B‖)) < tol.

The gradient (A only, B = I as in 1.13) is that of the k eigenpairs of A: the classic formula of a
full eigendecomposition with zero gradient on the other pairs, which is exact for distinct
eigenvalues and costs one eigh of A in the backward.
"""

import torch

__all__ = ["lobpcg"]


def _apply(M, X):
    """M @ X, with None standing for the identity."""
    return X if M is None else torch.matmul(M, X)


def _gram(M, S):
    """Sᵀ M S."""
    return torch.matmul(S.mT, _apply(M, S))


def _eigh(M, largest):
    """Eigenpairs of symmetric M, the largest first when largest."""
    E, Z = torch.linalg.eigh(M, UPLO="U")
    if largest:
        return torch.flip(E, dims=(-1,)), torch.flip(Z, dims=(-1,))
    return E, Z


class LOBPCG(object):
    """One LOBPCG run; a tracker is called with it after every step and may read (copies of) its
    state: iparams, fparams, bparams (the parameters), ivars["istep"], ivars["converged_count"],
    tvars["rerr"] and the other iteration variables, A, B, iK, and E, X, S, R. Setting
    bvars["force_stop"] = True stops the iteration."""

    def __init__(self, A, B, X, iK, iparams, fparams, bparams, method, tracker):
        self.A, self.B, self.iK = A, B, iK
        self.iparams, self.fparams, self.bparams = iparams, fparams, bparams
        self.method, self.tracker = method, tracker
        m, n = iparams["m"], iparams["n"]
        self.X = X
        self.E = torch.zeros((n,), dtype=X.dtype)
        self.R = torch.zeros((m, n), dtype=X.dtype)
        self.S = torch.zeros((m, 3 * n), dtype=X.dtype)
        self.tvars = {}
        self.ivars = {"istep": 0}
        self.fvars = {"_": 0.0}
        self.bvars = {"_": False}

    def __str__(self):
        fields = ["iparams", "fparams", "bparams", "ivars", "fvars", "bvars", "tvars", "A", "B", "iK", "X", "E"]
        return "LOPBCG:\n" + "".join("  %s=%s\n" % (name, getattr(self, name)) for name in fields)

    def run(self):
        self.update()
        self.call_tracker()
        while not self.stop_iteration():
            self.update()
            self.call_tracker()

    def call_tracker(self):
        if self.tracker is not None:
            self.tracker(self)

    def stop_iteration(self):
        return (
            self.bvars.get("force_stop", False)
            or self.ivars["iterations_left"] == 0
            or self.ivars["converged_count"] >= self.iparams["k"]
        )

    def update(self):
        """One step (the first one also measures A's and B's norms on X)."""
        if self.ivars["istep"] == 0:
            X_norm = float(torch.norm(self.X))
            self.fvars["X_norm"] = X_norm
            self.fvars["A_norm"] = float(torch.norm(_apply(self.A, self.X))) / X_norm
            self.fvars["B_norm"] = float(torch.norm(_apply(self.B, self.X))) / X_norm
            self.ivars["iterations_left"] = self.iparams["niter"]
            self.ivars["converged_count"] = 0
            self.ivars["converged_end"] = 0
        if self.method == "ortho":
            self._update_ortho()
        else:
            self._update_basic()
        self.ivars["iterations_left"] -= 1
        self.ivars["istep"] += 1

    def update_residual(self):
        self.R = _apply(self.A, self.X) - _apply(self.B, self.X) * self.E

    def update_converged_count(self):
        """How many leading pairs have converged (Note [LOBPCG]); never fewer than before."""
        E, X, R = self.E, self.X, self.R
        scale = torch.norm(X, 2, (0,)) * (self.fvars["A_norm"] + E[: X.shape[-1]] * self.fvars["B_norm"])
        rerr = torch.norm(R, 2, (0,)) / scale
        count = 0
        for converged in (rerr < self.fparams["tol"]).tolist():
            if not converged:
                break
            count += 1
        if count < self.ivars["converged_count"]:
            raise RuntimeError(
                "lobpcg: the number of converged eigenpairs fell from %d to %d" % (self.ivars["converged_count"], count)
            )
        self.ivars["converged_count"] = count
        self.tvars["rerr"] = rerr
        return count

    def _first_step(self):
        """Rayleigh-Ritz on X alone; returns nothing, sets X, E, R and the count."""
        Ri = self._rayleigh_ritz_transform(self.X)
        E, Z = _eigh(_gram(self.A, torch.matmul(self.X, Ri)), self.bparams["largest"])
        self.X = torch.matmul(self.X, torch.matmul(Ri, Z))
        self.E = E.clone()
        self.update_residual()
        return self.update_converged_count()

    def _set_basis(self, P, W):
        """S = [X, P, W], and where it ends."""
        n = self.iparams["n"]
        self.S[:, :n] = self.X
        self.S[:, n : n + P.shape[-1]] = P
        end = n + P.shape[-1] + W.shape[-1]
        self.S[:, n + P.shape[-1] : end] = W
        self.ivars["converged_end"] = end

    def _update_basic(self):
        n, largest = self.iparams["n"], self.bparams["largest"]
        if self.ivars["istep"] == 0:
            self._first_step()
            P = self.X[:, :0]
        else:
            nc, end = self.ivars["converged_count"], self.ivars["converged_end"]
            basis = self.S[:, nc:end]
            C = self._rayleigh_ritz_transform(basis)
            E, Z = _eigh(_gram(self.A, torch.matmul(basis, C)), largest)
            CZ = torch.matmul(C, Z)
            self.X[:, nc:] = torch.matmul(basis, CZ[:, : n - nc])
            self.E[nc:] = E[: n - nc]
            P = torch.matmul(basis, CZ[:, n : 2 * n - nc])
            self.update_residual()
            self.update_converged_count()
        W = _apply(self.iK, self.R[:, self.ivars["converged_count"] :])
        self._set_basis(P, W)

    def _update_ortho(self):
        n, largest = self.iparams["n"], self.bparams["largest"]
        if self.ivars["istep"] == 0:
            self._first_step()
            P = self.X[:, :0]
            W = self._get_ortho(self.R, self.X)
        else:
            nc, end = self.ivars["converged_count"], self.ivars["converged_end"]
            basis = self.S[:, nc:end]  # B-orthonormal: the small problem is already standard
            E, Z = _eigh(_gram(self.A, basis), largest)
            self.X[:, nc:] = torch.matmul(basis, Z[:, : n - nc])
            self.E[nc:] = E[: n - nc]
            # the new direction: the part of the Ritz vectors outside the old X, made orthonormal
            rotation = torch.linalg.qr(Z[: n - nc, n - nc :].mT).Q
            P = torch.matmul(basis, torch.matmul(Z[:, n - nc :], rotation))
            self.update_residual()
            nc = self.update_converged_count()
            W = self._get_ortho(self.R[:, nc:], torch.cat([self.X, P], dim=1))
        self._set_basis(P, W)

    def _rayleigh_ritz_transform(self, S):
        """Upper-triangular C with Cᵀ SᵀBS C = I: the Cholesky factor of the diagonally scaled
        SᵀBS, inverted, times the scaling."""
        SBS = _gram(self.B, S)
        d = SBS.diagonal(0, -2, -1) ** -0.5
        R = torch.linalg.cholesky(SBS * d * d.reshape(-1, 1), upper=True)
        return torch.linalg.solve_triangular(R, d.diag_embed(), upper=True, left=False)

    def _get_svqb(self, U, drop, tau):
        """U made B-orthonormal by an eigendecomposition of its scaled Gram matrix; columns whose
        eigenvalues fall below tau times the largest are dropped (drop) or lifted to it."""
        if U.numel() == 0:
            return U
        d = _gram(self.B, U).diagonal(0, -2, -1)
        if bool((d == 0).any()):  # exact zero columns would divide by zero below
            U = U[:, torch.where(d != 0)[0]]
            if U.numel() == 0:
                return U
            d = _gram(self.B, U).diagonal(0, -2, -1)
        scale = d**-0.5
        E, Z = _eigh(_gram(self.B, U) * scale * scale.reshape(-1, 1), False)
        floor = tau * float(E.abs().max())
        if drop:
            keep = torch.where(E > floor)[0]
            E, Z = E[keep], Z[:, keep]
        else:
            E = torch.where(E < floor, torch.full_like(E, floor), E)
        return torch.matmul(U * scale, Z * E**-0.5)

    def _get_ortho(self, U, V):
        """U made B-orthonormal and B-orthogonal to V (B-orthonormal), by at most ortho_i_max
        projections, each followed by at most ortho_j_max SVQB passes."""
        tau_ortho, tau_drop = self.fparams["ortho_tol"], self.fparams["ortho_tol_drop"]
        tau_replace, use_drop = self.fparams["ortho_tol_replace"], self.bparams["ortho_use_drop"]
        for key in [key for key in self.fvars if key.startswith("ortho_") and key.endswith("_rerr")]:
            del self.fvars[key]
        BV_norm = float(torch.norm(_apply(self.B, V)))
        VBU = torch.matmul(V.mT, _apply(self.B, U))
        i = j = 0
        for i in range(self.iparams["ortho_i_max"]):
            U = U - torch.matmul(V, VBU)
            drop, tau = False, tau_drop
            for j in range(self.iparams["ortho_j_max"]):
                if use_drop:
                    U = self._get_svqb(U, drop, tau)
                    drop, tau = True, tau_replace
                else:
                    U = self._get_svqb(U, False, tau_replace)
                if U.numel() == 0:  # U lay in V's span
                    self.ivars["ortho_i"], self.ivars["ortho_j"] = i, j
                    return U
                BU = _apply(self.B, U)
                UBU = torch.matmul(U.mT, BU)
                off = torch.norm(UBU - torch.eye(UBU.shape[-1], dtype=UBU.dtype))
                rerr = float(off) / float(torch.norm(BU) * torch.norm(U))
                self.fvars["ortho_UBUmI_rerr[%d, %d]" % (i, j)] = rerr
                if rerr < tau_ortho:
                    break
            VBU = torch.matmul(V.mT, BU)
            rerr = float(torch.norm(VBU)) / (BV_norm * float(torch.norm(U)))
            self.fvars["ortho_VBU_rerr[%d]" % i] = rerr
            if rerr < tau_ortho:
                break
            if self.iparams["m"] < U.shape[-1] + V.shape[-1]:
                raise ValueError(
                    "Overdetermined shape of U: #B-cols(=%d) >= #U-cols(=%d) + #V-cols(=%d) must hold"
                    % (self.iparams["m"], U.shape[-1], V.shape[-1])
                )
        self.ivars["ortho_i"], self.ivars["ortho_j"] = i, j
        return U


def _lobpcg(A, k, B, X, n, iK, niter, tol, largest, method, tracker, ortho_iparams, ortho_fparams, ortho_bparams):
    """lobpcg without the gradient: batches run one matrix at a time."""
    if A.dim() < 2 or A.shape[-2] != A.shape[-1]:
        raise ValueError("lobpcg: A must be a square matrix or a batch of them, got shape %s" % (tuple(A.shape),))
    if B is not None and B.shape != A.shape:
        raise ValueError("lobpcg: B must have A's shape %s, got %s" % (tuple(A.shape), tuple(B.shape)))
    dtype = A.dtype if A.dtype in (torch.float16, torch.float32, torch.float64) else torch.float32
    if tol is None:
        tol = {torch.float32: 1.2e-07, torch.float64: 2.23e-16}[dtype] ** 0.5
    m = A.shape[-1]
    if k is None:
        k = 1 if X is None else X.shape[-1]
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(
            "LPBPCG algorithm is not applicable when the number of A rows (={}) is smaller than 3 x the number "
            "of requested eigenpairs (={})".format(m, n)
        )
    method = "ortho" if method is None else method
    if method not in ("ortho", "basic"):
        raise ValueError('lobpcg: method must be "ortho" or "basic", got %r' % (method,))
    iparams = {"m": m, "n": n, "k": k, "niter": 1000 if niter is None else niter}
    fparams = {"tol": tol}
    bparams = {"largest": True if largest is None else largest}
    if method == "ortho":
        iparams.update(ortho_iparams or {})
        fparams.update(ortho_fparams or {})
        bparams.update(ortho_bparams or {})
        iparams.setdefault("ortho_i_max", 3)
        iparams.setdefault("ortho_j_max", 3)
        for name in ("ortho_tol", "ortho_tol_drop", "ortho_tol_replace"):
            fparams.setdefault(name, tol)
        bparams.setdefault("ortho_use_drop", False)

    batch = A.shape[:-2]
    count = 1
    for size in batch:
        count *= size
    As = A.reshape((count, m, m))
    Bs = None if B is None else B.reshape((count, m, m))
    Xs = None if X is None else X.reshape((count,) + tuple(X.shape[-2:]))
    values, vectors = [], []
    for i in range(count):
        X_i = torch.randn((m, n), dtype=dtype) if Xs is None else Xs[i]
        if tuple(X_i.shape) != (m, n):
            raise ValueError("lobpcg: X must have shape (*, %d, %d), got %s" % (m, n, tuple(X.shape)))
        if batch:
            iparams["batch_index"] = i
        worker = LOBPCG(As[i], None if Bs is None else Bs[i], X_i, iK, iparams, fparams, bparams, method, tracker)
        worker.run()
        values.append(worker.E[:k])
        vectors.append(worker.X[:, :k])
    if not batch:
        return values[0], vectors[0]
    return torch.stack(values).reshape(batch + (k,)), torch.stack(vectors).reshape(batch + (m, k))


class _LOBPCGFunction(torch.autograd.Function):
    """lobpcg with the gradient of A (Note [LOBPCG])."""

    @staticmethod
    def forward(ctx, A, B, options):
        D, U = _lobpcg(A.contiguous(), B=B, **options)
        ctx.save_for_backward(A, D, U)
        ctx.has_B = B is not None
        return D, U

    @staticmethod
    def backward(ctx, D_grad, U_grad):
        if ctx.has_B:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        A, D, U = ctx.saved_tensors
        E, V = torch.linalg.eigh(A)
        # the full eigenvectors matched to the k returned ones (nearest eigenvalue, same sign)
        match = torch.argmin((E.unsqueeze(-2) - D.unsqueeze(-1)).abs(), dim=-1)
        V_k = torch.gather(V, -1, match.unsqueeze(-2).expand(U.shape))
        V = V.scatter(-1, match.unsqueeze(-2).expand(U.shape), V_k * torch.sign((V_k * U).sum(-2, keepdim=True)))
        full_D_grad = torch.zeros_like(E).scatter(-1, match, D_grad)
        full_U_grad = torch.zeros_like(V).scatter(-1, match.unsqueeze(-2).expand(U.shape), U_grad)
        gaps = E.unsqueeze(-2) - E.unsqueeze(-1)
        eye = torch.eye(E.shape[-1], dtype=E.dtype).bool()
        F = torch.where(eye, torch.zeros_like(gaps), 1 / torch.where(eye, torch.ones_like(gaps), gaps))
        inner = torch.diag_embed(full_D_grad) + torch.matmul(V.mT, full_U_grad) * F
        return torch.matmul(V, torch.matmul(inner, V.mT)), None, None


def lobpcg(
    A,
    k=None,
    B=None,
    X=None,
    n=None,
    iK=None,
    niter=None,
    tol=None,
    largest=None,
    method=None,
    tracker=None,
    ortho_iparams=None,
    ortho_fparams=None,
    ortho_bparams=None,
):
    r"""The k largest (or smallest) eigenvalues and eigenvectors of the symmetric positive
    definite generalized eigenproblem A x = λ B x, by LOBPCG (Note [LOBPCG]).

    Args: A (*, m, m); k eigenpairs (default: X's columns, or 1); B (*, m, m), default the
    identity; X (*, m, n) the initial vectors (default n = k random ones); iK a preconditioner;
    niter the most steps (default 1000, -1 for no limit); tol the residual tolerance (default
    the square root of the dtype's epsilon); largest (default True); method "ortho" (default) or
    "basic"; tracker called with the LOBPCG state after every step; ortho_iparams,
    ortho_fparams, ortho_bparams the "ortho" method's settings.

    Returns: E (*, k) and X (*, m, k). A's gradient flows (with A symmetrized first, so that it
    is symmetric); B's does not.
    """
    options = dict(
        k=k,
        X=X,
        n=n,
        iK=iK,
        niter=niter,
        tol=tol,
        largest=largest,
        method=method,
        tracker=tracker,
        ortho_iparams=ortho_iparams,
        ortho_fparams=ortho_fparams,
        ortho_bparams=ortho_bparams,
    )
    if A.requires_grad or (B is not None and B.requires_grad):
        # symmetrized so that A's gradient is symmetric too, and A - t * A.grad stays symmetric
        return _LOBPCGFunction.apply((A + A.mT) / 2, None if B is None else (B + B.mT) / 2, options)
    return _lobpcg(A, B=B, **options)
