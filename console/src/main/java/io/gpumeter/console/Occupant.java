package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;

/** One pod's share of a card, as the ledger's Q1 rows answer it ({@code GET /api/v1/fleet/occupants}, a card's occupants). */
@TemplateData
@RegisterForReflection
public record Occupant(String cluster, String node, String gpuUuid, String namespace, String pod, String tenant, String team,
                       String project, Unit unit, BigDecimal fraction, String since) {

    /** The share of the card the pod holds. */
    @TemplateData
    @RegisterForReflection
    public record Unit(String kind, String migProfile, Integer cores, Long memoryMiB) {
    }

    /** e.g. {@code whole card}, {@code MIG 3g.40gb}, {@code vGPU 30 % cores, 20480 MiB}. */
    public String unitText() {
        if (unit == null) {
            return "";
        }
        String kind = Optional.ofNullable(unit.kind()).orElse("").toUpperCase(Locale.ROOT);
        return switch (kind) {
            case "WHOLE" -> "whole card";
            case "MIG" -> "MIG " + Optional.ofNullable(unit.migProfile()).orElse("");
            case "VGPU" -> "vGPU" + (unit.cores() != null ? " " + unit.cores() + " % cores" : "")
                    + (unit.memoryMiB() != null ? ", " + unit.memoryMiB() + " MiB" : "");
            case "SHARED" -> "time-sliced share";
            default -> kind.toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    public String share() {
        return Format.number(fraction);
    }

    public String who() {
        return namespace + "/" + pod;
    }
}
