package io.gpumeter.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.security.SecureRandom;
import java.util.Base64;

/** The {@link Sealer} of this console, from the key every replica shares (gpumeter.console.session.key). */
@ApplicationScoped
public class SessionKey {

    private static final Logger LOG = Logger.getLogger(SessionKey.class);

    @Produces
    @Singleton
    Sealer sealer(ConsoleConfig config) {
        return new Sealer(config.session().key().filter(k -> !k.isBlank()).orElseGet(SessionKey::processKey));
    }

    private static String processKey() {
        LOG.warn("No gpumeter.console.session.key (GPUMETER_CONSOLE_SESSION_KEY): sessions are sealed with a key of this "
                + "process only, so they end when it restarts and no other replica can open them");
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
