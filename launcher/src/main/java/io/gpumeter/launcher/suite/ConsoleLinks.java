package io.gpumeter.launcher.suite;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The console's sign-in links: {@code /signin?code=…} signs the admin in once with the code the console was started
 * with ({@code up} prints it); {@code /signin#token=…} carries a token in the fragment, which the browser never sends
 * to a server: the sign-in page shows whose token it is once the console has verified it, and signs it in when the
 * user clicks ({@code token --console} prints it).
 */
public final class ConsoleLinks {

    /** Where {@code up} serves the console with its default ports and address. */
    public static final URI LOCAL = URI.create("http://" + SuiteBuilder.DEFAULT_LISTEN_ADDRESS + ":" + Service.CONSOLE.defaultPort());

    private ConsoleLinks() {
    }

    public static URI oneTime(URI console, String code) {
        return URI.create(base(console) + "/signin?code=" + URLEncoder.encode(code, StandardCharsets.UTF_8));
    }

    public static URI withToken(URI console, String token) {
        return URI.create(base(console) + "/signin#token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    private static String base(URI console) {
        return console.toString().replaceAll("/+$", "");
    }
}
