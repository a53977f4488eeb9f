package io.gpumeter.common.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Seeded hostile variants of a valid input, for the parsers' fuzz tests: each case is reproducible from the seed
 * and its index. Mutations mix byte-level damage (flips, cuts, splices, control bytes) with the shapes parsers get
 * wrong (huge numbers, NaN and infinities, broken escapes and quotes, repeated or emptied lines, invalid UTF-8).
 */
public final class Fuzz {

    private static final String[] TOKENS = {
            "NaN", "+Inf", "-Inf", "Infinity", "1e309", "-1e309", "99999999999999999999999999", "-0", "0x1F", "",
            "\"", "\\", "\\x", "\\u12", "{", "}", "[", "]", ",", ":", "\n", "\r\n", "\t", " ", "#", "=", "{}", "[]",
            "null", "true", "\u0000", "\u202e", "é", "🙂", "[N/A]", "[Not Supported]", "-", "%", "MiB", "W",
            "2026-02-30T25:61:61Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026/07/03 22:22:01.444"};

    private static final List<String> LEAKS = List.of("io.gpumeter", "java.", "javax.", "jakarta.", "com.fasterxml",
            "org.", "SQL", "ERROR:", "Exception", "Cannot deserialize", "Unrecognized field");
    private static final java.util.regex.Pattern STACK_FRAME =
            java.util.regex.Pattern.compile("\\bat [a-z][\\w$]*(\\.[\\w$]+)+\\(");

    private final Random random;
    private final List<byte[]> seeds;
    private final HostileJson json;

    public Fuzz(long seed, List<String> validInputs) {
        this(seed, validInputs, false);
    }

    private Fuzz(long seed, List<String> validInputs, boolean structural) {
        this.random = new Random(seed);
        this.seeds = validInputs.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
        this.json = structural ? new HostileJson(random) : null;
    }

    /**
     * For JSON bodies: besides the byte-level damage, half the variants are structural (a wrong type at a field, an
     * array for an object, deep nesting, huge numbers, unknown or missing fields), some of them then cut short or
     * given a byte that is not UTF-8.
     */
    public static Fuzz json(long seed, List<String> validDocuments) {
        return new Fuzz(seed, validDocuments, true);
    }

    /**
     * Cases per parser: 150 by default, which keeps the whole build well inside its time budget while every seed
     * and over a hundred variants are tried; {@code -Dgpumeter.fuzz.cases=N} runs more (the seeds stay the same, so a
     * larger N tries the same first cases and then more).
     */
    public static int cases() {
        return Integer.getInteger("gpumeter.fuzz.cases", 150);
    }

    /** Runs {@code check} on {@code cases} variants; the first variant of each seed is the seed itself. */
    public void run(int cases, Consumer<byte[]> check) {
        for (int i = 0; i < cases; i++) {
            byte[] base = seeds.get(i % seeds.size());
            check.accept(i < seeds.size() ? base : variant(base));
        }
    }

    /** What a service answered one case. */
    public record Answer(int status, String contentType, String body) {
    }

    /**
     * Sends {@code cases} variants and holds every answer to the rule for hostile input: never a 5xx; a refusal is a
     * problem document without class names or stack traces, and leaves {@code state} (what the service stored or
     * forwarded, as its API or a stand-in shows it) as it was. Prints and returns how many answers had each status.
     */
    public Map<Integer, Integer> overHttp(String parser, int cases, Function<byte[], Answer> send, Supplier<?> state) {
        Map<Integer, Integer> statuses = new TreeMap<>();
        int[] n = {0};
        run(cases, body -> {
            Object before = state.get();
            Answer a = send.apply(body);
            statuses.merge(a.status(), 1, Integer::sum);
            String which = parser + " case " + n[0];
            if (a.status() >= 500) {
                throw new AssertionError(which + " answered " + a.status() + ": " + a.body());
            }
            if (a.status() >= 400) {
                if (!String.valueOf(a.contentType()).startsWith("application/problem+json")) {
                    throw new AssertionError(which + ": a refusal must be a problem document, got " + a.contentType());
                }
                String leak = namesCode(a.body());
                if (leak != null) {
                    throw new AssertionError(which + ": a refusal names code (" + leak + "): " + a.body());
                }
                Object after = state.get();
                if (!Objects.equals(before, after)) {
                    throw new AssertionError(which + ": a refused body changed what is stored: " + before + " -> " + after);
                }
            }
            n[0]++;
        });
        System.out.printf("fuzz %-16s %5d cases, statuses %s%n", parser, n[0], statuses);
        return statuses;
    }

    /**
     * What in a refusal's body names code instead of the input: a package or class name, SQL or a database error, a
     * library's exception or a stack frame; null when it names none.
     */
    public static String namesCode(String body) {
        for (String word : LEAKS) {
            if (body.contains(word)) {
                return word;
            }
        }
        java.util.regex.Matcher frame = STACK_FRAME.matcher(body);
        return frame.find() ? frame.group() : null;
    }

    private byte[] variant(byte[] base) {
        if (json == null || random.nextBoolean()) {
            return mutate(base, 1 + random.nextInt(4));
        }
        byte[] damaged = json.damage(base);
        if (damaged == null) {
            return mutate(base, 1 + random.nextInt(4));
        }
        return switch (random.nextInt(6)) {
            case 0 -> cut(damaged);
            case 1 -> insert(damaged, new byte[]{(byte) (0x80 + random.nextInt(0x40))});
            default -> damaged;
        };
    }

    byte[] mutate(byte[] input, int rounds) {
        byte[] out = input;
        for (int r = 0; r < rounds; r++) {
            out = switch (random.nextInt(9)) {
                case 0 -> flip(out);
                case 1 -> cut(out);
                case 2 -> insert(out, token().getBytes(StandardCharsets.UTF_8));
                case 3 -> replaceRun(out, token().getBytes(StandardCharsets.UTF_8));
                case 4 -> duplicateLine(out);
                case 5 -> dropLine(out);
                case 6 -> insert(out, new byte[]{(byte) (0x80 + random.nextInt(0x40))}); // invalid UTF-8
                case 7 -> insert(out, longRun());
                default -> replaceNumber(out);
            };
        }
        return out;
    }

    private String token() {
        return TOKENS[random.nextInt(TOKENS.length)];
    }

    private byte[] flip(byte[] in) {
        if (in.length == 0) {
            return in;
        }
        byte[] out = in.clone();
        int i = random.nextInt(out.length);
        out[i] = (byte) (out[i] ^ (1 << random.nextInt(8)));
        return out;
    }

    private byte[] cut(byte[] in) {
        return in.length == 0 ? in : java.util.Arrays.copyOf(in, random.nextInt(in.length));
    }

    private byte[] insert(byte[] in, byte[] what) {
        int at = in.length == 0 ? 0 : random.nextInt(in.length + 1);
        byte[] out = new byte[in.length + what.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(in, at, out, at + what.length, in.length - at);
        return out;
    }

    private byte[] replaceRun(byte[] in, byte[] what) {
        if (in.length == 0) {
            return what;
        }
        int at = random.nextInt(in.length);
        int len = Math.min(in.length - at, 1 + random.nextInt(8));
        byte[] out = new byte[in.length - len + what.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(in, at + len, out, at + what.length, in.length - at - len);
        return out;
    }

    private byte[] longRun() {
        byte[] run = new byte[1 + random.nextInt(70_000)];
        java.util.Arrays.fill(run, (byte) "a9\"{ ,".charAt(random.nextInt(6)));
        return run;
    }

    private List<String> lines(byte[] in) {
        return new ArrayList<>(List.of(new String(in, StandardCharsets.UTF_8).split("\n", -1)));
    }

    private byte[] duplicateLine(byte[] in) {
        List<String> lines = lines(in);
        int i = random.nextInt(lines.size());
        lines.add(i, lines.get(i));
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] dropLine(byte[] in) {
        List<String> lines = lines(in);
        if (lines.size() > 1) {
            lines.remove(random.nextInt(lines.size()));
        }
        return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] replaceNumber(byte[] in) {
        String text = new String(in, StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?").matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (m.find()) {
            spans.add(new int[]{m.start(), m.end()});
        }
        if (spans.isEmpty()) {
            return insert(in, token().getBytes(StandardCharsets.UTF_8));
        }
        int[] s = spans.get(random.nextInt(spans.size()));
        String[] numbers = {"NaN", "-1", "1e309", "99999999999999999999", "0", "-0.0", "3.4028236e38", "1.5", "+Inf"};
        return (text.substring(0, s[0]) + numbers[random.nextInt(numbers.length)] + text.substring(s[1]))
                .getBytes(StandardCharsets.UTF_8);
    }
}
