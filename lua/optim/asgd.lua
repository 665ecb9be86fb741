-- Averaged SGD (Bottou), torch7's optim.asgd:
--   x = x * (1 - lambda * eta_t) - eta_t * df/dx
--   ax = x when mu_t == 1, else ax + mu_t * (x - ax)
--   t = t + 1;  eta_t = eta0 / (1 + lambda * eta0 * t)^alpha;  mu_t = 1 / max(1, t - t0)
-- config: eta0 (1e-4), lambda (1e-4), alpha (0.75), t0 (1e6), written back into config as
-- torch7 did.  state: eta_t, mu_t, t, ax (the average), tmp.
-- Returns x, {f(x)}, ax.
function optim.asgd(opfunc, x, config, state)
   config = config or {}
   state = state or config
   config.eta0 = config.eta0 or 1e-4
   config.lambda = config.lambda or 1e-4
   config.alpha = config.alpha or 0.75
   config.t0 = config.t0 or 1e6

   state.eta_t = state.eta_t or config.eta0
   state.mu_t = state.mu_t or 1
   state.t = state.t or 0

   local fx, dfdx = opfunc(x)

   x:mul(1 - config.lambda * state.eta_t)
   x:add(-state.eta_t, dfdx)

   state.ax = state.ax or x.new():resizeAs(x):zero()
   state.tmp = state.tmp or x.new():resizeAs(x)
   if state.mu_t ~= 1 then
      state.tmp:copy(x):add(-1, state.ax):mul(state.mu_t)
      state.ax:add(state.tmp)
   else
      state.ax:copy(x)
   end

   state.t = state.t + 1
   state.eta_t = config.eta0 / math.pow(1 + config.lambda * config.eta0 * state.t, config.alpha)
   state.mu_t = 1 / math.max(1, state.t - config.t0)

   return x, { fx }, state.ax
end
