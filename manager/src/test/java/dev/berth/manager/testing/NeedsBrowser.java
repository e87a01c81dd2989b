package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs Chromium and chromedriver (Debian's chromium, chromium-driver); run the group alone with {@code -Dgroups=browser}, or leave it out with {@code -DexcludedGroups=browser}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("browser")
public @interface NeedsBrowser {}
