package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The ledger's supply read ({@code GET /api/v1/capacity/supply}): per GPU model, one name whatever spelling reported
 * it, the card-hours of each local day with what cordons and failures took out, the inventory at the window's end, the
 * request shapes its usable cards offer, and the model's failures and planned maintenance over the window.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Supply(Instant from, Instant to, String timeZone, String cluster, List<Model> models) {

    public Supply {
        models = models == null ? List.of() : List.copyOf(models);
    }

    /** @param inventorySince the earliest instant a card of the model was in the inventory (null: never) */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Model(String model, List<String> spellings, Instant inventorySince, List<Day> days, End end,
                        List<Shape> shapes, Failures failures, Maintenance maintenance) {

        public Model {
            spellings = spellings == null ? List.of() : List.copyOf(spellings);
            days = days == null ? List.of() : List.copyOf(days);
            shapes = shapes == null ? List.of() : List.copyOf(shapes);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Day(String day, BigDecimal cardHours, BigDecimal cordonedCardHours, BigDecimal failedCardHours,
                      BigDecimal usableCardHours) {
    }

    /** The inventory at {@code at} (the earlier of the window's end and now), in whole cards. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record End(Instant at, int cards, int cordoned, int failed, int usable) {
    }

    /**
     * A request shape the usable cards offer at the window's end.
     *
     * @param cards     usable cards offering the shape
     * @param units     requests of the shape those cards hold when empty
     * @param freeUnits how many more fit in what was free, after fragmentation
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Shape(String shape, String kind, int cards, int units, int freeUnits) {
    }

    /**
     * Card failures over the window, the runbook's cordons among them.
     *
     * @param perCardHour incidents per card-hour of the model's inventory (null without card-hours)
     * @param mttrSeconds the mean duration of the failures repaired in the window (null: none repaired)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Failures(int incidents, int repaired, BigDecimal mttrSeconds, BigDecimal perCardHour,
                           int runbookCordons) {
    }

    /** Cordons nobody's runbook made (planned maintenance): their card-hours and share of the model's card-hours. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Maintenance(int cordons, BigDecimal cardHours, BigDecimal share) {
    }
}
