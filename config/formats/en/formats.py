"""English dates as the site has always shown them: day, short month, year ("25 Nov 2026")
and the 24-hour clock of a tournament hall, not Django's US "Nov. 25, 2026, 4:15 p.m.".
Templates name these (`|date:"DATE_FORMAT"`), never a literal format, so each language
brings its own; see https://docs.djangoproject.com/en/stable/ref/templates/builtins/#date
for the letters."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M, H:i"
MONTH_DAY_FORMAT = "j M"
TIME_FORMAT = "H:i"
