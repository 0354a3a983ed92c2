/**
 * The scraper's state on disk: the one Jackson setup of its state files ({@link io.mangacircus.scraper.state.StateJson})
 * and the crash points of the writes that crash tests stop at ({@link io.mangacircus.scraper.state.CrashPoints}).
 */
package io.mangacircus.scraper.state;
