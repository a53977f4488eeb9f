package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans one GPU model's capacity: a least-squares line through its daily allocated GPU-hours, the busiest day of
 * the horizon on that line with a prediction interval, the cards that day needs at the target utilization, and
 * the gap to the inventory less the failure and maintenance margin.
 */
public final class CapacityPlanner {

    /** The forecast method, printed with every plan. */
    public static final String METHOD = "least-squares linear trend on daily allocated GPU-hours (per 24 h); "
            + "prediction interval ±z·σ·√(1 + 1/n + (x − x̄)²/Sxx), σ the residual standard deviation";

    private static final double HOURS_PER_DAY = 24.0;

    private CapacityPlanner() {
    }

    public static ModelPlan plan(ModelHistory history, PlanTerms terms) {
        List<ModelHistory.Day> days = history.days();
        int n = days.size();
        double[] demand = new double[n];
        List<ModelPlan.DayView> views = new ArrayList<>(n);
        Double peak = null;
        String peakDay = null;
        for (int i = 0; i < n; i++) {
            ModelHistory.Day d = days.get(i);
            // A 23- or 25-hour day is scaled to 24 h, so a clock change is not read as a change in demand.
            demand[i] = d.allocatedGpuHours() * HOURS_PER_DAY / d.hours();
            views.add(new ModelPlan.DayView(d.day().toString(), scale(d.allocatedGpuHours(), 6), scale(d.capacityCardHours(), 6)));
            if (d.capacityCardHours() > 0) {
                double share = d.allocatedGpuHours() / d.capacityCardHours();
                if (peak == null || share > peak) {
                    peak = share;
                    peakDay = d.day().toString();
                }
            }
        }
        LinearTrend trend = LinearTrend.fit(demand);
        double level = trend.at(n - 1);
        Double growth = level > 0 ? trend.slope() * 7 / level : null;
        boolean clear = trend.trendIsClear(terms.z());
        ModelPlan.Demand demandView = new ModelPlan.Demand(views, scale(trend.slope(), 6),
                scale(trend.slope() - trend.slopeHalfWidth(terms.z()), 6),
                scale(trend.slope() + trend.slopeHalfWidth(terms.z()), 6), scale(level, 6),
                scale(trend.residualSigma(), 6), growth == null ? null : scale(growth, 6), clear,
                peak == null ? null : scale(peak, 6), peakDay);

        ModelHistory.Day last = days.get(n - 1);
        double cards = last.capacityCardHours() / last.hours();
        double usable = cards * (1 - terms.margin());
        ModelPlan.Supply supply = new ModelPlan.Supply(scale(last.capacityCardHours(), 6), scale(cards, 2),
                scale(terms.margin(), 4), scale(usable, 2));

        // On a line the busiest day of the horizon is its last day when demand rises, else its first.
        int ahead = trend.slope() >= 0 ? terms.horizonDays() : 1;
        double x = n - 1 + ahead;
        double point = Math.max(0, trend.at(x));
        double half = trend.predictionHalfWidth(x, terms.z());
        double low = Math.max(0, trend.at(x) - half);
        double high = Math.max(0, trend.at(x) + half);
        double perCard = HOURS_PER_DAY * terms.targetUtilization();
        double needed = point / perCard;
        LocalDate busiest = last.day().plusDays(ahead);
        ModelPlan.Forecast forecast = new ModelPlan.Forecast(busiest.toString(), scale(point, 3), scale(low, 3),
                scale(high, 3), scale(needed, 2), scale(low / perCard, 2), scale(high / perCard, 2));
        double gap = usable - needed;
        ModelPlan.Gap gapView = new ModelPlan.Gap(scale(gap, 2), scale(usable - high / perCard, 2),
                scale(usable - low / perCard, 2));

        ModelPlan.QueueView queue = queue(history.queue(), terms);
        String summary = history.model() + ": " + trendPhrase(trend, growth, clear, demand) + queuePhrase(queue, terms)
                + "; " + gapPhrase(gap, terms.horizonDays());
        return new ModelPlan(history.model(), demandView, queue, history.fragmentation(), supply, forecast, gapView, summary);
    }

    private static ModelPlan.QueueView queue(ModelHistory.Queue q, PlanTerms terms) {
        if (q == null) {
            return null;
        }
        int over = 0;
        List<ModelPlan.QueueDayView> days = new ArrayList<>();
        for (ModelHistory.QueueDay d : q.dailyP95()) {
            days.add(new ModelPlan.QueueDayView(d.day().toString(), d.p95Seconds()));
            if (d.p95Seconds() != null && d.p95Seconds().compareTo(BigDecimal.valueOf(terms.queueLineSeconds())) > 0) {
                over++;
            }
        }
        BigDecimal rate = q.workloads() == 0 ? null
                : BigDecimal.valueOf(q.rejected()).divide(BigDecimal.valueOf(q.workloads()), 6, RoundingMode.HALF_EVEN);
        return new ModelPlan.QueueView(q.scope(), q.clusterQueues(), days, over, days.size(), q.workloads(),
                q.rejected(), rate);
    }

    private static String trendPhrase(LinearTrend trend, Double growth, boolean clear, double[] demand) {
        boolean any = false;
        for (double d : demand) {
            any |= d > 0;
        }
        if (!any) {
            return "no demand";
        }
        if (!clear) {
            return "demand flat";
        }
        String verb = trend.slope() > 0 ? "grows" : "falls";
        if (growth == null) {
            return "demand " + verb + " ~" + Math.round(Math.abs(trend.slope() * 7)) + " GPU-hours/day each week";
        }
        return "demand " + verb + " ~" + Math.round(Math.abs(growth) * 100) + "%/week";
    }

    private static String queuePhrase(ModelPlan.QueueView queue, PlanTerms terms) {
        if (queue == null || queue.days() == 0) {
            return "";
        }
        String who = "fleet".equals(queue.scope()) ? "fleet queue" : "queue";
        return "; " + who + " p95 over " + duration(terms.queueLineSeconds()) + " on " + queue.daysOverLine() + " of "
                + queue.days() + " days";
    }

    private static String gapPhrase(double gap, int horizonDays) {
        long cards = Math.round(Math.abs(gap));
        String period = " the next " + horizonDays + (horizonDays == 1 ? " day" : " days");
        if (cards == 0) {
            return "supply about meets demand for" + period;
        }
        String unit = cards == 1 ? " card" : " cards";
        return gap < 0 ? "short by ~" + cards + unit + " for" + period : "surplus of ~" + cards + unit + " over" + period;
    }

    private static String duration(long seconds) {
        if (seconds % 3600 == 0) {
            return seconds / 3600 + (seconds == 3600 ? " hour" : " hours");
        }
        return seconds % 60 == 0 ? seconds / 60 + " min" : seconds + " s";
    }

    private static BigDecimal scale(double value, int digits) {
        return BigDecimal.valueOf(value).setScale(digits, RoundingMode.HALF_EVEN);
    }
}
