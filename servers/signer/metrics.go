package main

import (
	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/adapters/metrics"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/servers/internal/scrape"
)

// metricsToken names the setting of the token that lets a scraper in.
const metricsToken = "svc.dss.signer.metrics.token"

// serveMetrics routes GET /actuator/prometheus: the token's holders may
// scrape, everyone may under permit-all, the signer's development
// switch (docs/decisions/0039). The path authenticates itself, as
// sign-ska does: the resource-server filter lets it through.
func serveMetrics(e *echo.Echo, a *signer.Signer) {
	cfg := a.Config()
	e.GET(scrape.Path, scrape.Handler(a.Metrics().Handler(), cfg.Metrics.Token, cfg.PermitAll, metricsToken))
}

// countErrors counts each error answer by its status and the slug of its
// problem before h writes it: the same problemFor decides both.
func countErrors(m *metrics.Signer, h echo.HTTPErrorHandler) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if !c.Response().Committed {
			p := problemFor(err)
			m.HTTPError(p.Status, p.Slug())
		}
		h(err, c)
	}
}
