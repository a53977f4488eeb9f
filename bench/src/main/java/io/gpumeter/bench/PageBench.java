package io.gpumeter.bench;

import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long each console page takes to load on the demo fleet ({@code up --demo}): the time from the request to the
 * last byte of the page, which is when the console has asked the services for every figure on it (the charts are
 * then drawn in the browser from the page itself). Each page is loaded a few times in a row; p50 and max are
 * printed, and a page over the targets (p50 1 s, p95 2 s) is marked. With {@code --gpus} the suite is loaded with a
 * month of that fleet instead ({@link ScalePages}: {@code bench/run month}'s generator, {@code --pods} as there), and the
 * pages are those of that month, and the reads behind the Capacity and Hours pages are timed each on its own
 * ({@link UpstreamReads}); {@code --screenshots} saves the Fleet, Hours and Queues pages as the browser draws them.
 * Usage: {@code bench/run pages [loads] [--gpus=N] [--pods=N] [--screenshots]} (default 5 loads a page, the demo).
 */
public final class PageBench {

    private static final Duration TARGET = Duration.ofSeconds(1);
    private static final Duration TARGET_P95 = Duration.ofSeconds(2);

    public static void main(String[] args) throws Exception {
        int loads = 5;
        int gpus = 0;
        long pods = 0;
        boolean shots = false;
        for (String arg : args) {
            if (arg.startsWith("--gpus=")) {
                gpus = Integer.parseInt(arg.substring("--gpus=".length()).replace("_", ""));
            } else if (arg.startsWith("--pods=")) {
                pods = Long.parseLong(arg.substring("--pods=".length()).replace("_", ""));
            } else if (arg.equals("--screenshots")) {
                shots = true;
            } else {
                loads = Integer.parseInt(arg);
            }
        }
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve(gpus > 0 ? "bench/target/pages-scale" : "bench/target/pages-run");
        var builder = Suite.builder(root).withConsole().freePorts().embeddedDatabase(state.resolve("pgdata"))
                .freshDatabase(true).stateDirectory(state).logDirectory(state.resolve("logs"))
                .readyTimeout(Duration.ofMinutes(3)).env(Service.ALERT, "GPUMETER_ALERT_ALERTMANAGER_ENABLED", "false");
        if (gpus > 0) {
            builder.env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false");
            try (Suite suite = builder.build().start()) {
                ScalePages month = ScalePages.load(suite, gpus, pods);
                measure(suite, month.pages(), loads, shots ? state.resolve("screenshots") : null);
                UpstreamReads.time(suite, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), loads);
            }
            return;
        }
        FleetSimulator simulator = new FleetSimulator(FleetSimulator.DEFAULT_SEED);
        DemoSignals signals = new DemoSignals(simulator.plan());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Demo demo = new Demo(simulator, new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (SimulatedApiServer api = SimulatedApiServer.start()) {
            demo.configure(builder, api);
            try (Suite suite = builder.build().start()) {
                System.out.println("feeding the demo fleet...");
                demo.run(suite, api);
                measure(suite, pages(signals), loads, shots ? state.resolve("screenshots") : null);
            }
        }
    }

    /**
     * Loads each page once to warm up, then {@code loads} times: p50, p95 (nearest rank) and max, the page's size and
     * the most rows, cards or tiles it lists — the check that no page draws ten thousand of anything.
     */
    private static void measure(Suite suite, Map<String, String> pages, int loads, Path screenshots) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        String cookie = signIn(http, suite.consoleSigninUrl().orElseThrow());
        String base = suite.url(Service.CONSOLE).toString().replaceAll("/$", "");
        System.out.printf("%-10s %8s %8s %8s %8s %9s %6s %6s  (%d loads each, after one warm-up, the first; target p50 < %d ms, p95 < %d ms)%n",
                "page", "first ms", "p50 ms", "p95 ms", "max ms", "kB", "rows", "cards", loads, TARGET.toMillis(), TARGET_P95.toMillis());
        int over = 0;
        for (Map.Entry<String, String> page : pages.entrySet()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + page.getValue())).header("Cookie", cookie)
                    .timeout(Duration.ofSeconds(60)).GET().build();
            // The first load computes what the ledger's day books do not hold yet (the days of a month that are over,
            // once), and the JIT's first pass: printed apart, the loads after it are the page as people meet it.
            long first = System.nanoTime();
            String html = load(http, request, page.getKey());
            long firstMillis = Duration.ofNanos(System.nanoTime() - first).toMillis();
            long[] millis = new long[loads];
            for (int i = 0; i < loads; i++) {
                long t0 = System.nanoTime();
                load(http, request, page.getKey());
                millis[i] = Duration.ofNanos(System.nanoTime() - t0).toMillis();
            }
            Arrays.sort(millis);
            long p50 = millis[(loads - 1) / 2];
            long p95 = millis[(int) Math.ceil(0.95 * loads) - 1];
            boolean slow = p50 > TARGET.toMillis() || p95 > TARGET_P95.toMillis();
            over += slow ? 1 : 0;
            System.out.printf("%-10s %8d %8d %8d %8d %9.0f %6d %6d  %s%n", page.getKey(), firstMillis, p50, p95, millis[loads - 1],
                    html.length() / 1024.0, count(html, "<tr"), count(html, "class=\"card "), slow ? "over the target" : "");
            if (slow) {
                callTimes(http, suite.adminToken(), html);
            }
        }
        System.out.println(over == 0 ? "every page within p50 1 s and p95 2 s" : over + " page(s) over the target");
        if (screenshots != null) {
            if (PageShots.installed()) {
                PageShots.take(cookie, base, pages, screenshots);
            } else {
                System.out.println("no screenshots: chromium and chromium-driver are not installed");
            }
        }
    }

    /** How long a slow page's call is waited for when it is timed again. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(120);

    /** Each GET the page says it made, made again with the admin's token and timed: where a slow page's time goes. */
    private static void callTimes(HttpClient http, String token, String html) throws Exception {
        java.util.regex.Matcher calls = java.util.regex.Pattern.compile("<code>GET</code> <a href=\"([^\"]+)\"").matcher(html);
        while (calls.find()) {
            String url = calls.group(1).replace("&amp;", "&");
            long t0 = System.nanoTime();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                        .timeout(CALL_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
                System.out.printf("    %6d ms  HTTP %d  %s%n", Duration.ofNanos(System.nanoTime() - t0).toMillis(), r.statusCode(), url);
            } catch (java.net.http.HttpTimeoutException e) {
                System.out.printf("    over %d s, no answer  %s%n", CALL_TIMEOUT.toSeconds(), url);
            }
        }
    }

    private static int count(String html, String what) {
        int n = 0;
        for (int at = html.indexOf(what); at >= 0; at = html.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /** The pages as a person opens them from the menu, over the demo's data. */
    static Map<String, String> pages(DemoSignals signals) {
        LocalDate today = LocalDate.ofInstant(signals.usageTo(), ZoneOffset.UTC);
        String days = "from=" + today.minusDays(6) + "&to=" + today.plusDays(1);
        String month = YearMonth.from(signals.usageTo().atZone(ZoneOffset.UTC)).toString();
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("fleet", "/fleet?at=" + Rfc3339.format(signals.usageTo().minus(Duration.ofMinutes(20))));
        pages.put("card", "/fleet/card?uuid=" + signals.sharedCard() + "&at=" + Rfc3339.format(signals.usageTo().minus(Duration.ofMinutes(20))));
        pages.put("hours", "/hours?month=" + month);
        pages.put("budgets", "/budgets?month=" + month);
        pages.put("slos", "/slos?window=6h&to=" + Rfc3339.format(signals.usageTo()));
        pages.put("idle", "/idle?" + days + "&groupBy=tenant");
        pages.put("queues", "/queues?" + days + "&groupBy=clusterQueue");
        pages.put("failures", "/failures?" + days + "&groupBy=cause");
        pages.put("jitter", "/jitter?window=6h&to=" + Rfc3339.format(signals.usageTo()));
        pages.put("capacity", "/capacity");
        pages.put("alerts", "/alerts?state=all");
        return pages;
    }

    private static String load(HttpClient http, HttpRequest request, String page) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(page + " answered " + response.statusCode());
        }
        if (response.body().contains("class=\"message error\"")) {
            System.out.println("  " + page + " shows an error: the figures are missing, the time says little");
        }
        return response.body();
    }

    /** The session cookie the one-time link sets. */
    private static String signIn(HttpClient http, URI link) throws Exception {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(link).GET().build(), HttpResponse.BodyHandlers.discarding());
        List<String> cookies = new ArrayList<>();
        for (String header : response.headers().allValues("set-cookie")) {
            cookies.add(header.split(";", 2)[0]);
        }
        if (cookies.isEmpty()) {
            throw new IllegalStateException("the one-time link set no session (HTTP " + response.statusCode() + ")");
        }
        return String.join("; ", cookies);
    }
}
