package io.gpumeter.billing.service;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;

/**
 * One cluster's energy terms on a rate card as the API takes and shows them: its price per kWh and the grams of
 * CO2e one kWh emits there; a figure left out is the card's own.
 */
@RegisterForReflection // a map value of the request and the view: read and written by Jackson
public record ClusterEnergy(BigDecimal energyPricePerKWh, BigDecimal gramsCo2ePerKWh) {
}
