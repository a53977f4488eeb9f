package io.gpumeter.alert.client;

import io.gpumeter.common.security.ServiceToken;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.math.BigDecimal;
import java.util.List;

/**
 * The billing-service reads the cost rules need: every budget's forecast and the latest day's cost judgements. Use
 * {@link BillingClient}, which adds the call policy.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@RegisterRestClient(configKey = "billing")
@RegisterProvider(ServiceToken.class)
interface BillingRestClient {

    record ForecastView(String tenant, String month, String currency, BigDecimal budget, BigDecimal spentToDate,
                        BigDecimal elapsedFraction, BigDecimal forecast) {
    }

    record JudgementView(String tenant, BigDecimal cost, BigDecimal trailingMean, BigDecimal threshold,
                         boolean anomalous) {
    }

    record AnomaliesView(String day, String currency, List<JudgementView> tenants) {
    }

    @GET
    @Path("/budget-forecasts")
    Uni<List<ForecastView>> budgetForecasts(@QueryParam("at") String at);

    @GET
    @Path("/cost-anomalies")
    Uni<AnomaliesView> costAnomalies(@QueryParam("at") String at);
}
