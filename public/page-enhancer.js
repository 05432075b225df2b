// The one script of a page a visitor reads plainly (docs/decisions/027): the page is the server's
// HTML, and this gives its few moving parts the behaviour the app gives them elsewhere, through the
// same attributes (app/components/layout/site-nav.tsx, ui/accordion.tsx, app-install/install-app.tsx,
// podcast/episode-card.tsx, pricing/plan-cards.tsx) and the same service worker
// (app/lib/service-worker.ts). Plain JavaScript, no build step, like public/sw.js: under 2 KB as sent.
(function () {
  'use strict';
  var script = document.currentScript;

  // The header: a shadow and a lower bar once the page is scrolled past 20 px; the classes and the
  // threshold are site-nav.tsx's (NAV_SCROLL_THRESHOLD_PX).
  var header = document.querySelector('header[data-scrolled]');
  var bar = header && header.querySelector('nav');
  if (header && bar) {
    var onScroll = function () {
      var scrolled = window.scrollY > 20;
      header.setAttribute('data-scrolled', scrolled ? 'true' : 'false');
      ['bg-white/95', 'shadow-md', 'backdrop-blur'].forEach(function (name) {
        header.classList.toggle(name, scrolled);
      });
      header.classList.toggle('bg-white/80', !scrolled);
      bar.classList.toggle('h-14', scrolled);
      bar.classList.toggle('h-16', !scrolled);
    };
    // Read once the first frame is laid out: reading the scroll position now would force a layout.
    requestAnimationFrame(onScroll);
    window.addEventListener('scroll', onScroll, { passive: true });
  }

  // The phone menu: its button opens and closes it; Escape closes it and gives the button the focus.
  var menuButton = document.querySelector('button[aria-controls="mobile-menu"]');
  var menu = document.getElementById('mobile-menu');
  var icon = menuButton && menuButton.querySelector('path');
  function setMenu(open) {
    menu.hidden = !open;
    menuButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    menuButton.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    if (icon) icon.setAttribute('d', open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16');
  }
  if (menuButton && menu) {
    menuButton.addEventListener('click', function () {
      setMenu(menu.hidden);
    });
    document.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape' || menu.hidden) return;
      setMenu(false);
      menuButton.focus();
    });
  }

  // Accordions: one item open at a time; a click on the open one closes it.
  document.querySelectorAll('[data-accordion]').forEach(function (accordion) {
    accordion.addEventListener('click', function (event) {
      var button = event.target.closest('button[aria-controls]');
      if (!button || !accordion.contains(button)) return;
      var opening = button.getAttribute('aria-expanded') !== 'true';
      accordion.querySelectorAll('button[aria-controls]').forEach(function (each) {
        var open = opening && each === button;
        each.setAttribute('aria-expanded', open ? 'true' : 'false');
        var panel = document.getElementById(each.getAttribute('aria-controls'));
        if (panel) panel.hidden = !open;
        var arrow = each.querySelector('[aria-hidden="true"]:last-child');
        if (arrow) arrow.classList.toggle('rotate-180', open);
      });
    });
  });

  // The pricing page's period switch: each button (Monthly, Yearly) shows its period's cards; the
  // pressed look is plan-cards.tsx's BillingToggle's.
  document.querySelectorAll('[role="group"][aria-label="Billing period"]').forEach(function (group) {
    var buttons = group.querySelectorAll('button');
    buttons.forEach(function (button) {
      button.addEventListener('click', function () {
        var chosen = button.textContent.trim().toLowerCase();
        buttons.forEach(function (each) {
          var pressed = each === button;
          each.setAttribute('aria-pressed', pressed ? 'true' : 'false');
          ['bg-brand-800', 'text-white', 'shadow'].forEach(function (name) {
            each.classList.toggle(name, pressed);
          });
          each.classList.toggle('text-gray-700', !pressed);
        });
        document.querySelectorAll('[data-billing-period]').forEach(function (cards) {
          cards.hidden = cards.getAttribute('data-billing-period') !== chosen;
        });
      });
    });
  });

  // A podcast image that fails to load becomes a grey box (it may have failed before this ran).
  document.querySelectorAll('img[data-broken-class]').forEach(function (image) {
    var replace = function () {
      if (!image.isConnected) return;
      var box = document.createElement('div');
      box.className = image.getAttribute('data-broken-class');
      box.setAttribute('data-testid', 'image-placeholder');
      image.replaceWith(box);
    };
    image.addEventListener('error', replace);
    // One that may have failed before this ran: decode() rejects for a broken image (asked only of a
    // complete one, so no image is fetched early; one still loading reports its failure above).
    if (image.complete && image.decode) image.decode().catch(replace);
  });

  // Installing the app: the browser's own prompt where it offered one, else the steps' dialog.
  var installPrompt = null;
  window.addEventListener('beforeinstallprompt', function (event) {
    event.preventDefault();
    installPrompt = event;
  });
  // The buttons whose steps are in the page: each is followed by its dialog.
  document.querySelectorAll('footer button + dialog').forEach(function (steps) {
    var button = steps.previousElementSibling;
    button.addEventListener('click', function () {
      if (installPrompt) {
        var prompt = installPrompt;
        installPrompt = null;
        prompt.prompt();
        return;
      }
      if (steps.showModal) steps.showModal();
    });
  });

  // The service worker, and no offline copies of a member who signed out on this device (the
  // names are app/lib/service-worker.ts's and public/sw.js's).
  // Registered once the page has loaded, so its first downloads do not share the line with the page's.
  var worker = script && script.getAttribute('data-service-worker');
  if (worker && 'serviceWorker' in navigator) {
    window.addEventListener('load', function () {
      navigator.serviceWorker.register(worker).catch(function () {});
    });
  }
  try {
    var before = localStorage.getItem('offline-owner');
    if (before !== null && before !== '' && 'caches' in window) {
      caches.delete('pages-v1');
      caches.delete('offline-downloads');
    }
    localStorage.setItem('offline-owner', '');
  } catch (refused) {
    // Storage refused (a private window): nothing is kept offline there either.
  }

  // The page is ready to use (browser tests wait for this, as on pages that run the app).
  document.documentElement.setAttribute('data-hydrated', 'true');
})();
