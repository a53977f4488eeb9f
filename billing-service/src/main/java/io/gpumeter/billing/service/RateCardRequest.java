package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.TreeMap;

/**
 * A new dated rate card: prices per normalized GPU-hour from {@code effectiveFrom} on and, optionally, energy
 * terms — a price per kWh and grams of CO2e per kWh — for clusters it does not list and per cluster.
 */
public record RateCardRequest(
        @NotBlank @Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}",
                message = "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
        String version,
        @NotNull OffsetDateTime effectiveFrom,
        String currency,
        @NotNull @DecimalMin("0") BigDecimal defaultRate,
        Map<@NotBlank String, @NotNull @DecimalMin("0") BigDecimal> models,
        @DecimalMin("0") BigDecimal energyPricePerKWh,
        @DecimalMin("0") BigDecimal gramsCo2ePerKWh,
        Map<String, ClusterEnergy> clusters) {

    /** Longest cluster name a card may list (a DNS name's length; the ledger's cluster names are shorter). */
    static final int MAX_CLUSTER_NAME = 253;

    /** The card's own energy terms, for the clusters it does not list. */
    EnergyTerms energy() {
        return new EnergyTerms(energyPricePerKWh, gramsCo2ePerKWh);
    }

    /**
     * The listed clusters' energy terms, by name.
     *
     * @throws ApiProblem 400 naming the field, e.g. {@code clusters.eu-1.energyPricePerKWh}, for a blank, long or
     *                    repeated name, an entry with neither figure, or a negative figure
     */
    Map<String, EnergyTerms> clusterEnergy() {
        Map<String, EnergyTerms> out = new TreeMap<>();
        if (clusters == null) {
            return out;
        }
        clusters.forEach((name, terms) -> {
            if (name == null || name.isBlank() || name.strip().length() > MAX_CLUSTER_NAME) {
                throw ApiProblem.badRequest("clusters", "a cluster's name must be 1 to " + MAX_CLUSTER_NAME
                        + " characters, got '" + name + "'");
            }
            String cluster = name.strip();
            String field = "clusters." + cluster;
            if (terms == null || terms.energyPricePerKWh() == null && terms.gramsCo2ePerKWh() == null) {
                throw ApiProblem.badRequest(field, field + " must give energyPricePerKWh, gramsCo2ePerKWh or both");
            }
            nonNegative(field + ".energyPricePerKWh", terms.energyPricePerKWh());
            nonNegative(field + ".gramsCo2ePerKWh", terms.gramsCo2ePerKWh());
            if (out.put(cluster, new EnergyTerms(terms.energyPricePerKWh(), terms.gramsCo2ePerKWh())) != null) {
                throw ApiProblem.badRequest("clusters", "cluster '" + cluster + "' is listed twice");
            }
        });
        return out;
    }

    private static void nonNegative(String field, BigDecimal figure) {
        if (figure != null && figure.signum() < 0) {
            throw ApiProblem.badRequest(field, field + " must be greater than or equal to 0, got "
                    + figure.toPlainString());
        }
    }
}
