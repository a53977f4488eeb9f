package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.util.Map;

/** Card-hours the fleet's inventory could supply over a window, for one group (here: one GPU model). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CardHours(String key, Map<String, String> group, BigDecimal cardHours) {

    public String dimension(String name) {
        return group == null ? null : group.get(name);
    }
}
