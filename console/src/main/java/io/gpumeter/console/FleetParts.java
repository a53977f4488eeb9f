package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What the Fleet and Card pages draw, read from the ledger's Q1 occupant rows. */
public final class FleetParts {

    private FleetParts() {
    }

    /** One pod's share of a card. */
    @TemplateData
    public record Occupant(String namespace, String pod, String tenant, String team, String project, String unit,
                           BigDecimal fraction, String since) {
        public String share() {
            return Format.number(fraction);
        }
    }

    /** A card on a node: its occupants, or none (free). */
    @TemplateData
    public record Card(String uuid, String link, List<Occupant> occupants, BigDecimal held) {
        public boolean free() {
            return occupants.isEmpty();
        }

        public String heldText() {
            return Format.number(held);
        }
    }

    /**
     * A node: its cards, named ones first, and the units held on cards the device plugin does not name (whole cards
     * and MIG slices: Kubernetes says how many, not which), which fill {@code unnamedCards} cards at least.
     */
    @TemplateData
    public record Node(String cluster, String name, int cardCount, List<Card> cards, List<Occupant> unnamed,
                       int unnamedCards, int occupied, String heldText) {
        public int free() {
            return Math.max(0, cardCount - occupied);
        }

        public String unnamedHeld() {
            return Format.number(unnamed.stream().map(Occupant::fraction).reduce(BigDecimal.ZERO, BigDecimal::add));
        }
    }

    static List<Occupant> occupants(JsonNode rows) {
        List<Occupant> out = new ArrayList<>();
        rows.forEach(r -> out.add(occupant(r)));
        return out;
    }

    static Occupant occupant(JsonNode row) {
        return new Occupant(Format.text(row, "namespace"), Format.text(row, "pod"), Format.text(row, "tenant"),
                Format.text(row, "team"), Format.text(row, "project"), unit(row.path("unit")), Format.decimal(row, "fraction"),
                Format.text(row, "since"));
    }

    /** e.g. {@code whole card}, {@code MIG 3g.40gb}, {@code vGPU 30 % cores, 20480 MiB}. */
    static String unit(JsonNode unit) {
        String kind = Optional.ofNullable(Format.text(unit, "kind")).orElse("").toUpperCase(Locale.ROOT);
        return switch (kind) {
            case "WHOLE" -> "whole card";
            case "MIG" -> "MIG " + Optional.ofNullable(Format.text(unit, "migProfile")).orElse("");
            case "VGPU" -> "vGPU" + (unit.hasNonNull("cores") ? " " + unit.get("cores").asText() + " % cores" : "")
                    + (unit.hasNonNull("memoryMiB") ? ", " + unit.get("memoryMiB").asText() + " MiB" : "");
            case "SHARED" -> "time-sliced share";
            default -> kind.toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

}
