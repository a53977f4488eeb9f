package io.gpumeter.bench;

import org.openqa.selenium.Cookie;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Screenshots of console pages in a headless Debian Chromium (packages chromium and chromium-driver), in the session
 * the bench signed in with (its cookie, set in the browser: the one-time link is spent), each page given a few seconds
 * for its charts to draw.
 */
final class PageShots {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private PageShots() {
    }

    static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** Takes one screenshot per page (name to path and query) into {@code directory}. */
    static void take(String cookies, String base, Map<String, String> pages, Path directory) throws IOException,
            InterruptedException {
        Files.createDirectories(directory);
        Path profile = Files.createTempDirectory("gpumeter-bench-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-dev-shm-usage", "--window-size=1440,1600",
                "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        try {
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
            driver.get(base + "/signin");
            for (String cookie : cookies.split("; ")) {
                String[] nameValue = cookie.split("=", 2);
                driver.manage().addCookie(new Cookie(nameValue[0], nameValue[1]));
            }
            for (Map.Entry<String, String> page : pages.entrySet()) {
                driver.get(base + page.getValue());
                Thread.sleep(3000); // the charts draw from the page's own data
                byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
                Path file = directory.resolve(page.getKey() + ".png");
                Files.write(file, png);
                System.out.println("screenshot: " + file);
            }
        } finally {
            driver.quit();
        }
    }
}
