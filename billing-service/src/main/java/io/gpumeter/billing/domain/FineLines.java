package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Arithmetic on fine lines: pricing them into report rows, and the difference between what the ledger says now
 * and what was billed.
 */
public final class FineLines {

    private FineLines() {
    }

    /**
     * Report rows for {@code lines}, grouped by the report's dimension, each line priced with the card of its
     * stretch; lines outside {@code scope} are left out.
     *
     * @param byModel one row per group and GPU model instead of one per group
     */
    public static List<ReportRow> price(CostCalculator.Terms terms, List<RateCardTimeline.Stretch> stretches,
                                        List<FineLine> lines, ReportScope scope, boolean byModel) {
        List<List<UsageLine>> byStretch = new ArrayList<>(stretches.size());
        for (int i = 0; i < stretches.size(); i++) {
            byStretch.add(new ArrayList<>());
        }
        for (FineLine line : lines) {
            if (line.stretch() < 0 || line.stretch() >= stretches.size()) {
                throw new IllegalArgumentException("line of stretch " + line.stretch() + " but the month has "
                        + stretches.size() + " stretches");
            }
            if (!scope.admits(line.key().tenant())) {
                continue;
            }
            byStretch.get(line.stretch()).add(new UsageLine(line.key().dimension(terms.groupBy()),
                    line.key().model(), line.key().cluster(), line.allocatedHours(), line.usedHours(),
                    line.energyKWh()));
        }
        List<CostCalculator.Piece> pieces = new ArrayList<>(stretches.size());
        for (int i = 0; i < stretches.size(); i++) {
            pieces.add(new CostCalculator.Piece(stretches.get(i).card(), byStretch.get(i)));
        }
        return CostCalculator.price(terms, pieces, byModel).rows();
    }

    /**
     * {@code now} minus {@code billed}, per stretch and key; keys whose allocated and used hours and energy are
     * unchanged are left out. A key billed but no longer in the ledger comes back negative.
     */
    public static List<FineLine> difference(List<FineLine> now, List<FineLine> billed) {
        record At(int stretch, FineKey key) {
        }
        Map<At, BigDecimal[]> sums = new LinkedHashMap<>();
        for (FineLine line : now) {
            BigDecimal[] s = sums.computeIfAbsent(new At(line.stretch(), line.key()),
                    k -> new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
            s[0] = s[0].add(line.allocatedHours());
            s[1] = s[1].add(line.usedHours());
            s[2] = s[2].add(line.energyKWh());
        }
        for (FineLine line : billed) {
            BigDecimal[] s = sums.computeIfAbsent(new At(line.stretch(), line.key()),
                    k -> new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
            s[0] = s[0].subtract(line.allocatedHours());
            s[1] = s[1].subtract(line.usedHours());
            s[2] = s[2].subtract(line.energyKWh());
        }
        List<FineLine> out = new ArrayList<>();
        sums.forEach((at, s) -> {
            if (s[0].signum() != 0 || s[1].signum() != 0 || s[2].signum() != 0) {
                out.add(new FineLine(at.stretch(), at.key(), s[0], s[1], s[2]));
            }
        });
        return out;
    }
}
