package io.gpumeter.billing.rest;

import io.gpumeter.billing.repository.StoredRateCard;
import io.gpumeter.billing.service.ClusterEnergy;
import io.gpumeter.billing.service.RateCardRequest;
import io.gpumeter.billing.service.RateCardService;
import io.gpumeter.billing.service.StoredCards;
import io.gpumeter.common.problem.ApiProblem;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dated rate cards. A card is never changed in place: a new price is a new version with its effective instant.
 */
@Path("/api/v1/rate-cards")
@Produces(MediaType.APPLICATION_JSON)
public class RateCardResource {

    /** A stored card as the API shows it; the energy figures are null (and clusters empty) when it has none. */
    public record RateCardView(String version, String effectiveFrom, String currency, BigDecimal defaultRate,
                               Map<String, BigDecimal> models, BigDecimal energyPricePerKWh,
                               BigDecimal gramsCo2ePerKWh, Map<String, ClusterEnergy> clusters) {
        static RateCardView of(StoredRateCard card) {
            Map<String, ClusterEnergy> clusters = new TreeMap<>();
            StoredCards.clusterEnergy(card).forEach((name, terms) ->
                    clusters.put(name, new ClusterEnergy(terms.pricePerKWh(), terms.gramsCo2ePerKWh())));
            return new RateCardView(card.version, card.effectiveFrom.toString(), card.currency, card.defaultRate,
                    card.models, card.energyPricePerKWh, card.gramsCo2ePerKWh, clusters);
        }
    }

    private final RateCardService cards;

    public RateCardResource(RateCardService cards) {
        this.cards = cards;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Store a rate card that prices GPU-hours from its effective instant on")
    public Uni<Response> create(RateCardRequest request) {
        return cards.create(request).map(card -> Response
                .created(UriBuilder.fromPath("/api/v1/rate-cards/{version}").build(card.version))
                .entity(RateCardView.of(card))
                .build());
    }

    @GET
    @Operation(summary = "The stored rate cards, oldest effective instant first")
    public Uni<List<RateCardView>> list() {
        return cards.list().map(all -> all.stream().map(RateCardView::of).toList());
    }

    @GET
    @Path("/{version}")
    public Uni<RateCardView> get(@PathParam("version") String version) {
        return cards.get(version).map(card -> {
            if (card == null) {
                throw ApiProblem.notFound("version", "no rate card with version '" + version + "'");
            }
            return RateCardView.of(card);
        });
    }

    @DELETE
    @Path("/{version}")
    @Operation(summary = "Remove a rate card entered by mistake")
    public Uni<Response> delete(@PathParam("version") String version) {
        return cards.delete(version).map(deleted -> {
            if (!deleted) {
                throw ApiProblem.notFound("version", "no rate card with version '" + version + "'");
            }
            return Response.noContent().build();
        });
    }
}
