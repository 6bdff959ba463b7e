// বাংলা। কী-গুলো en.js-এর মতোই।

export default {
  "board.coordinates_drawn": "যেমন আঁকা আছে: সারি গোনা হয় এই ছকের ওপর থেকে, কলাম তার শুরু থেকে।",
  "share.daily_name": "Foursquare #{number}",
  "share.practice_name": "Foursquare অনুশীলন",
  "share.won": { one: "জয় · {n}টি বাকি", other: "জয় · {n}টি বাকি" },
  "share.lost": { one: "হার · {n}টি তাস রাখার পর", other: "হার · {n}টি তাস রাখার পর" },
  "share.unfinished": { one: "অসমাপ্ত · {n}টি তাস রাখা হয়েছে", other: "অসমাপ্ত · {n}টি তাস রাখা হয়েছে" },
  "share.strip_title": "আপনার শেয়ারে যা দেখায়:",
  "share.strip_story": "আপনার রাখা প্রতিটি তাসের জন্য ক্রমমতো একটি বর্গ; তারপর কয়টি গাদা উপুড় ছিল, রং তা বলে।",
  "share.strip_picture": "ছক কীভাবে শেষ হল: প্রতিটি চিত গাদা, প্রতিটি উপুড় গাদা আর প্রতিটি খালি জায়গার জন্য একটি বর্গ, কোথায় ছিল তা না বলে।",
  "share.key_none": "কোনো গাদা উপুড় নয়",
  "share.key_few": "{a} বা {b}টি উপুড়",
  "share.key_n": "{n}টি উপুড়",
  "share.key_four": "{n}টি উপুড়: আর একটি হলেই হার",
  "share.key_lost": "{n}টি বা তার বেশি উপুড়: হার",
  "share.key_up": "চিত গাদা",
  "share.key_down": "উপুড় গাদা",
  "share.key_empty": "খালি জায়গা",
  "challenge.title_open": "এই তাসগুলো জিততে পারবেন?",
  "challenge.intro_open": "এই লিংকটি এমন তাস খোলে যা কেউ আপনার সঙ্গে শেয়ার করেছেন: একই তাস, একই ক্রম।",
};
