package io.gpumeter.ledger.supply.domain;

import io.gpumeter.ledger.inventory.domain.GpuModels;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The supply side of a capacity plan over a window, per GPU model (one model however its sources spell it): card-hours
 * per local day with the cordoned, failed and usable ones, the inventory at the window's end and the request shapes it
 * offers, and the failure and maintenance history a plan's margins are measured from. Hours are exact decimals.
 *
 * @param to      as asked; the answer counts up to the earlier of it and now ({@link End#at})
 * @param cluster the cluster asked for, null for every cluster
 */
public record Supply(Instant from, Instant to, String timeZone, String cluster, List<Model> models) {

    /**
     * @param model          the canonical model ({@code GpuModels.canonical}), as the demand read names it, so a plan
     *                       joins the two; "unknown" for cards no source names a model for
     * @param spellings      every spelling the inventory and the fragmentation read reported it under, sorted
     * @param inventorySince the earliest instant a card of the model is in the inventory, null if never
     */
    public record Model(String model, List<String> spellings, Instant inventorySince, List<Day> days, End end,
                        List<Shape> shapes, Failures failures, Maintenance maintenance) {
    }

    /**
     * One local day: a card both cordoned and failed counts once in {@code usableCardHours}, so usable = card −
     * cordoned − failed + the hours both cordoned and failed.
     */
    public record Day(String day, BigDecimal cardHours, BigDecimal cordonedCardHours, BigDecimal failedCardHours,
                      BigDecimal usableCardHours) {
    }

    /** The inventory as the window ends, in whole cards. */
    public record End(Instant at, int cards, int cordoned, int failed, int usable) {
    }

    /**
     * A request shape the usable cards offer at the window's end.
     *
     * @param cards     usable cards offering the shape
     * @param units     requests of the shape those cards hold when empty
     * @param freeUnits how many more fit in what is free at the window's end
     */
    public record Shape(String shape, String kind, int cards, int units, int freeUnits) {
    }

    /**
     * Card failures that started in the window, and the suite's runbook cordons counted with them.
     *
     * @param incidents              card failure incidents plus {@code runbookCordons}
     * @param repaired               of the incidents, those recovered before the window's end
     * @param mttrSeconds            the mean time to recover of {@code repaired}, null when none
     * @param perCardHour            incidents ÷ the window's card-hours, null when it has none
     * @param runbookCordonCardHours card-hours of the window spent under the runbook's cordons
     */
    public record Failures(int incidents, int repaired, BigDecimal mttrSeconds, BigDecimal perCardHour,
                           int runbookCordons, BigDecimal runbookCordonCardHours) {
    }

    /**
     * Cordons a person made (not the runbook): how many began in the window, the window's card-hours spent under
     * any such cordon, and their share of the window's card-hours (null when it has none).
     */
    public record Maintenance(int cordons, BigDecimal cardHours, BigDecimal share) {
    }
}
